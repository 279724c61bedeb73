/// Video jobs by output, so that two requests for the same rendition share one ffmpeg run and
/// anyone can ask how far it has got; and how each one that failed ended.
///
/// A failure is kept, and given to whoever asks for that output again, until someone retries
/// it on purpose: a video that cannot be made would otherwise be made again by every request
/// and every poll, and keep the encode slots busy for nothing. It is kept in memory only, so a
/// restart tries each such video once more: a restart is when what failed may have changed (a
/// new ffmpeg, a freed disk, a machine less loaded than the one that timed out), and one more
/// attempt per video and restart, made only when someone asks for it, costs little.
actor VideoJobs {
    /// One output of one original: `derivative` is its key in the derivative cache.
    struct Key: Hashable, Sendable {
        var hash: String
        var derivative: String
    }

    typealias Make = @Sendable (_ progress: @escaping @Sendable (Double) -> Void) async throws(LibraryError) -> DerivativeCache.CachedFile

    enum State: Sendable {
        case running(progress: Double)
        case failed(LibraryError)
    }

    /// The run under way for each output, numbered so that a run cancelled for want of waiters
    /// and one started after it are never taken for each other.
    private var running: [Key: (number: Int, task: Task<Result<DerivativeCache.CachedFile, LibraryError>, Never>)] = [:]
    private var runs = 0
    private var progress: [Key: Double] = [:]
    private var failures: [Key: LibraryError] = [:]
    /// Who waits for each run, by a number of each waiter's own.
    private var waiters: [Key: Set<Int>] = [:]
    private var nextWaiter = 0
    /// Runs that go on when nobody waits for them any more: those started in the background, and
    /// those whose output every later asker wants (a whole movie's rendition).
    private var kept: Set<Key> = []

    /// Runs `make` for `key`, or joins the run under way; throws at once the failure kept from
    /// an earlier run. A waiter whose task is cancelled (its client has gone) stops waiting; a
    /// run nobody waits for any more is cancelled, its ffmpeg killed, unless it is `kept`.
    func run(_ key: Key, keptWhenAbandoned: Bool = false, _ make: @escaping Make) async throws(LibraryError)
        -> DerivativeCache.CachedFile
    {
        if let failure = failures[key] { throw failure }
        if keptWhenAbandoned { kept.insert(key) }
        let task = task(key, make)
        nextWaiter += 1
        let waiter = nextWaiter
        waiters[key, default: []].insert(waiter)
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            Task { await self.leave(key, waiter) }
        }
        leave(key, waiter)
        return try result.get()
    }

    /// Starts `make` for `key` and returns without waiting, unless it is under way or failed.
    func start(_ key: Key, _ make: @escaping Make) {
        guard failures[key] == nil else { return }
        kept.insert(key)
        _ = task(key, make)
    }

    private func leave(_ key: Key, _ waiter: Int) {
        guard waiters[key]?.remove(waiter) != nil, waiters[key]?.isEmpty == true else { return }
        waiters[key] = nil
        if !kept.contains(key) { running[key]?.task.cancel() }
    }

    /// Forgets how the outputs of `key`'s original failed (a trim made from it fails for the
    /// same reasons as its rendition) and starts `make` for `key`.
    func retry(_ key: Key, _ make: @escaping Make) {
        forgetFailures(of: key.hash)
        kept.insert(key)
        _ = task(key, make)
    }

    /// Forgets how the outputs of an original failed here: where servers share a queue, the
    /// queue keeps failures, and a job it hands out again is to be tried.
    func forgetFailures(of hash: String) {
        failures = failures.filter { $0.key.hash != hash }
    }

    /// How the job for `key` stands; nil when none is running and none failed.
    func state(_ key: Key) -> State? {
        if let fraction = progress[key] { return .running(progress: fraction) }
        return failures[key].map(State.failed)
    }

    private func task(_ key: Key, _ make: @escaping Make) -> Task<Result<DerivativeCache.CachedFile, LibraryError>, Never> {
        // A run cancelled because nobody waited is ending: whoever asks now gets a run of their own.
        if let current = running[key], !current.task.isCancelled { return current.task }
        runs += 1
        let number = runs
        progress[key] = 0
        let task = Task { [weak self] () -> Result<DerivativeCache.CachedFile, LibraryError> in
            let report: @Sendable (Double) -> Void = { [weak self] fraction in
                Task { await self?.update(key, fraction) }
            }
            let result: Result<DerivativeCache.CachedFile, LibraryError>
            do throws(LibraryError) {
                result = .success(try await make(report))
            } catch {
                result = .failure(error)
            }
            await self?.finish(key, number, result, abandoned: Task.isCancelled)
            return result
        }
        running[key] = (number, task)
        return task
    }

    /// A run stopped because nobody waited for it is no failure of the video's: the next asker
    /// starts it again.
    private func finish(_ key: Key, _ number: Int, _ result: Result<DerivativeCache.CachedFile, LibraryError>, abandoned: Bool) {
        guard running[key]?.number == number else { return }
        running[key] = nil
        progress[key] = nil
        kept.remove(key)
        if case .failure(let error) = result, !abandoned { failures[key] = error }
    }

    private func update(_ key: Key, _ fraction: Double) {
        if progress[key] != nil { progress[key] = min(max(fraction, 0), 1) }
    }
}
