import Foundation
internal import Synchronization

/// The local copies of blobs a server has read from the bucket (decoders and the server need a
/// file on this machine), kept under `limit` bytes: past it, the copies used least lately go
/// first. Uses are noted in memory only, so reading a copy costs no system call; at start the
/// files' modification times stand in for them. A copy used within the last minute is never
/// removed, so a caller that was just given its path finds the file (one already opened reads on
/// after an unlink in any case).
final class LocalCopies: Sendable {
    let folder: String
    let limit: Int
    private let copies: Mutex<[String: Copy]>

    private struct Copy {
        var size: Int
        var used: Date
    }

    static let recentUse: TimeInterval = 60

    /// `isCopy` tells a copy's file name from the folder's other files (downloads under way).
    init(folder: String, limit: Int, isCopy: (String) -> Bool) {
        self.folder = folder
        self.limit = limit
        var found: [String: Copy] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where isCopy(name) {
            var info = stat()
            guard stat("\(folder)/\(name)", &info) == 0 else { continue }
            found[name] = Copy(size: Int(info.st_size), used: Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
        }
        copies = Mutex(found)
    }

    var bytes: Int { copies.withLock { $0.values.reduce(0) { $0 + $1.size } } }

    func used(_ name: String, now: Date = Date()) {
        copies.withLock { $0[name]?.used = now }
    }

    /// A copy was made: the oldest others go until all fit.
    func added(_ name: String, size: Int, now: Date = Date()) {
        let doomed = copies.withLock { copies -> [String] in
            copies[name] = Copy(size: size, used: now)
            var total = copies.values.reduce(0) { $0 + $1.size }
            var doomed: [String] = []
            for (candidate, copy) in copies.sorted(by: { $0.value.used < $1.value.used }) where total > limit {
                guard copy.used < now.addingTimeInterval(-Self.recentUse) else { break }
                doomed.append(candidate)
                total -= copy.size
                copies[candidate] = nil
            }
            return doomed
        }
        for name in doomed { unlink("\(folder)/\(name)") }
    }

    func removed(_ name: String) {
        _ = copies.withLock { $0.removeValue(forKey: name) }
    }
}
