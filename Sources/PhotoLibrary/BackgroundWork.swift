import Storage
import Synchronization

/// Work the library does in the background, as Settings shows it: "Finding places: 1,234 of
/// 20,000".
public struct BackgroundWork: Sendable, Equatable {
    /// What it does, as people say it ("Finding places").
    public var title: String
    public var done: Int
    public var total: Int
}

/// A background task's progress while it runs (`Geocoder`, `WordReader`): nothing before it
/// begins and once it ends, and never more done than there was to do (others may add to it).
final class BackgroundTally: Sendable {
    private let state = Mutex<BackgroundWork?>(nil)

    var work: BackgroundWork? { state.withLock { $0 } }

    func begin(_ title: String, total: Int) {
        state.withLock { $0 = BackgroundWork(title: title, done: 0, total: total) }
    }

    func advance(by count: Int) {
        state.withLock { work in
            if let current = work { work?.done = min(current.done + count, current.total) }
        }
    }

    func end() {
        state.withLock { $0 = nil }
    }
}

extension LibraryPart {
    /// How many assets meet `condition` (one whose partial index answers it: what a background
    /// task has to do).
    func assets(where condition: String) async throws(LibraryError) -> Int {
        try await read { connection throws(StorageError) in
            try connection.query("SELECT count(*) AS found FROM assets WHERE \(condition)", []).first?.integer("found") ?? 0
        }
    }
}
