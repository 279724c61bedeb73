internal import Synchronization

/// At most `limit` of something at once, refused rather than queued: password checks are slow
/// and memory-hard on purpose, so a burst of them must not pile up threads and memory.
public final class ConcurrencyLimit: Sendable {
    public let limit: Int
    private let running = Mutex(0)

    public init(_ limit: Int) {
        self.limit = limit
    }

    /// Runs `body` if a place is free; nil, without running it, when all are taken.
    public func ifFree<T>(_ body: () async throws -> T) async rethrows -> T? {
        let entered = running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard entered else { return nil }
        defer { running.withLock { $0 -= 1 } }
        return try await body()
    }
}
