import Synchronization

/// Async mutual exclusion per key: bodies for the same key take turns, in the order they asked;
/// bodies for other keys run at once. Waiting suspends, never blocks a thread. A key no body
/// holds costs nothing.
public final class KeyedLock<Key: Hashable & Sendable>: Sendable {
    /// A key is held while it is here; its array is who waits, first to ask first.
    private let held = Mutex<[Key: [CheckedContinuation<Void, Never>]]>([:])

    public init() {}

    public func withLock<T, E: Error>(_ key: Key, _ body: () async throws(E) -> T) async throws(E) -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = held.withLock { held in
                guard held[key] != nil else {
                    held[key] = []
                    return true
                }
                held[key]!.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Hands the key to its first waiter, or frees it.
    private func release(_ key: Key) {
        let next = held.withLock { held -> CheckedContinuation<Void, Never>? in
            guard var waiters = held[key], !waiters.isEmpty else {
                held[key] = nil
                return nil
            }
            let first = waiters.removeFirst()
            held[key] = waiters
            return first
        }
        next?.resume()
    }
}
