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

    private var running: [Key: Task<Result<DerivativeCache.CachedFile, LibraryError>, Never>] = [:]
    private var progress: [Key: Double] = [:]
    private var failures: [Key: LibraryError] = [:]

    /// Runs `make` for `key`, or joins the run under way; throws at once the failure kept from
    /// an earlier run.
    func run(_ key: Key, _ make: @escaping Make) async throws(LibraryError) -> DerivativeCache.CachedFile {
        if let failure = failures[key] { throw failure }
        return try await task(key, make).value.get()
    }

    /// Starts `make` for `key` and returns without waiting, unless it is under way or failed.
    func start(_ key: Key, _ make: @escaping Make) {
        if failures[key] == nil { _ = task(key, make) }
    }

    /// Forgets how the outputs of `key`'s original failed (a trim made from it fails for the
    /// same reasons as its rendition) and starts `make` for `key`.
    func retry(_ key: Key, _ make: @escaping Make) {
        forgetFailures(of: key.hash)
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
        if let task = running[key] { return task }
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
            await self?.finish(key, result)
            return result
        }
        running[key] = task
        return task
    }

    private func finish(_ key: Key, _ result: Result<DerivativeCache.CachedFile, LibraryError>) {
        running[key] = nil
        progress[key] = nil
        if case .failure(let error) = result { failures[key] = error }
    }

    private func update(_ key: Key, _ fraction: Double) {
        if progress[key] != nil { progress[key] = min(max(fraction, 0), 1) }
    }
}
