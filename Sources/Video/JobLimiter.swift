/// An async counting semaphore: at most `limit` bodies run at once, later callers wait in order.
///
/// An actor rather than a lock because waiting must suspend, not block: a blocked cooperative
/// thread would stall unrelated work.
actor JobLimiter {
    nonisolated let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a slot is free and frees the slot however `body` ends.
    nonisolated func withSlot<Result: Sendable, Failure: Error>(
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            // The slot passes straight to the next waiter, so `running` stays the same.
            waiting.removeFirst().resume()
        }
    }
}
