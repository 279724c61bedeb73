import Foundation

/// A one-line progress bar on standard error, drawn only on a terminal and at most ten times a
/// second, so that piping the output stays clean and fast.
struct ProgressBar {
    let total: Int
    let enabled: Bool
    private var lastDrawn = Date.distantPast

    init(total: Int, enabled: Bool = Terminal.isInteractive) {
        self.total = total
        self.enabled = enabled && total > 0
    }

    mutating func update(done: Int, rejected: Int, current: String) {
        guard enabled, Date().timeIntervalSince(lastDrawn) >= 0.1 || done == total else { return }
        lastDrawn = Date()
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let name = (current as NSString).lastPathComponent
        let failed = rejected > 0 ? " · \(rejected) rejected" : ""
        Terminal.status("\(bar) \(done)/\(total)\(failed)  \(name.prefix(40))")
    }

    func finish() {
        if enabled { Terminal.clearStatus() }
    }
}
