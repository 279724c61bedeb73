public import Foundation
internal import Synchronization

/// Slows password guessing: after `limit` failures from one address within `window`, that
/// address waits out `penalty`; past ten times the limit from everyone, so does everyone (a
/// guesser with many addresses).
public final class LockOut: Sendable {
    public let limit: Int
    public let window: TimeInterval
    public let penalty: TimeInterval
    private let failures = Mutex<[String: [Date]]>([:])

    public init(limit: Int = 5, window: TimeInterval = 15 * 60, penalty: TimeInterval = 15 * 60) {
        self.limit = limit
        self.window = window
        self.penalty = penalty
    }

    /// Seconds the address must still wait, or nil when it may try.
    public func wait(for address: String, now: Date = Date()) -> TimeInterval? {
        failures.withLock { failures in
            let since = now.addingTimeInterval(-max(window, penalty))
            for key in failures.keys { failures[key]?.removeAll { $0 < since } }
            failures = failures.filter { !$0.value.isEmpty }
            let all = failures.values.flatMap { $0 }.sorted()
            let mine = failures[address] ?? []
            if mine.count >= limit, let last = mine.last, now < last.addingTimeInterval(penalty) {
                return last.addingTimeInterval(penalty).timeIntervalSince(now)
            }
            if all.count >= limit * 10, let last = all.last, now < last.addingTimeInterval(penalty) {
                return last.addingTimeInterval(penalty).timeIntervalSince(now)
            }
            return nil
        }
    }

    public func failed(_ address: String, now: Date = Date()) {
        failures.withLock { $0[address, default: []].append(now) }
    }

    public func succeeded(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
    }
}
