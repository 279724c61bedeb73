import Dispatch

/// Runs blocking work (decodes, parsers over many files) on a dispatch thread and waits for it
/// without holding one of the cooperative pool's threads: on two cores the pool has two, and a
/// test that blocks them stalls every other test's awaits, live servers' handlers included.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
