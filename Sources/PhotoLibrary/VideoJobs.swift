/// Video jobs under way, by output key, so that two requests for the same rendition share one
/// ffmpeg run and anyone can ask how far it has got.
actor VideoJobs {
    private var running: [String: Task<Result<DerivativeCache.CachedFile, LibraryError>, Never>] = [:]
    private var progress: [String: Double] = [:]

    /// Runs `make` for `key`, or joins the run already under way.
    func run(
        _ key: String,
        _ make: @escaping @Sendable (@escaping @Sendable (Double) -> Void) async throws(LibraryError) -> DerivativeCache.CachedFile
    ) async throws(LibraryError) -> DerivativeCache.CachedFile {
        if let task = running[key] { return try await task.value.get() }
        progress[key] = 0
        let task = Task { [weak self] () -> Result<DerivativeCache.CachedFile, LibraryError> in
            let report: @Sendable (Double) -> Void = { [weak self] fraction in
                Task { await self?.update(key, fraction) }
            }
            do throws(LibraryError) {
                return .success(try await make(report))
            } catch {
                return .failure(error)
            }
        }
        running[key] = task
        let result = await task.value
        running[key] = nil
        progress[key] = nil
        return try result.get()
    }

    /// How far the job for `key` has got, 0...1; nil when none is running.
    func fraction(_ key: String) -> Double? { progress[key] }

    private func update(_ key: String, _ fraction: Double) {
        if progress[key] != nil { progress[key] = min(max(fraction, 0), 1) }
    }
}
