import Foundation

/// Runs blocking work (decodes, parsers over many files) on a thread of its own and waits for it
/// without holding a thread anything else needs: the cooperative pool has one thread a core, and
/// the global dispatch queues as few for work that does not ask for more, so a test blocking
/// either stalls every other test's awaits, timers and live servers' handlers.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "test-blocking-work"
        thread.start()
    }
}
