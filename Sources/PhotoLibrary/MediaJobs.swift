import Executors
import Foundation
import Storage
import Synchronization
import Video

/// Video made from originals: playable renditions, trims, stream segments and scrub strips,
/// made by ffmpeg once for everyone who asks (`VideoJobs`), through the rendition queue when
/// servers share the database (`RenditionQueue`). Its file work runs on its own lane; ffmpeg
/// runs in child processes.
public final class MediaJobs: FileWorking {
    let stores: LibraryStores
    let catalog: Catalog
    let derivatives: Derivatives
    let jobs = VideoJobs()
    /// The rendition jobs servers sharing the database make for each other; nil for a database
    /// one process keeps, whose renditions are `jobs` alone.
    let queue: RenditionQueue?
    /// This server's worker on `queue`, and what follows the queue's announcements.
    private let queueTasks = Mutex<[Task<Void, Never>]>([])
    let lane: BlockingExecutor<Void>

    init(_ stores: LibraryStores, catalog: Catalog, derivatives: Derivatives) {
        self.stores = stores
        self.catalog = catalog
        self.derivatives = derivatives
        lane = BlockingExecutor(name: "media", threads: 2)
        let database = stores.database
        let announcements = database.announcements()
        queue = announcements.map { _ in RenditionQueue(database: database, lease: stores.options.renditionLease) }
        if let queue, let announcements {
            let following = queue.follow(announcements)
            // Weak between jobs, so that a library nobody holds stops working.
            let working = Task { [weak self] in
                while !Task.isCancelled && self != nil {
                    let seen = queue.news.rings
                    if let claim = try? await queue.claim() {
                        await self?.make(claim, on: queue)
                    } else {
                        await queue.news.wait(after: seen, timeout: RenditionQueue.pollInterval)
                    }
                }
            }
            queueTasks.withLock { $0 = [following, working] }
        }
    }

    deinit {
        for task in queueTasks.withLock({ $0 }) { task.cancel() }
    }

    var cache: DerivativeCache { derivatives.cache }

    /// A file browsers can play: the original when they play it as it is, else an H.264/AAC MP4
    /// rendition, made on first request (this waits for it) and cached. A rendition that failed
    /// throws its failure at once until `retryRendition`.
    public func playableVideo(of id: String, owner: Owner?) async throws(LibraryError) -> Derivative {
        let asset = try await movie(id, owner: owner)
        if asset.isBrowserPlayable == true {
            return Derivative(path: try await original(of: asset), mimeType: asset.mimeType, size: nil, etag: "\"\(asset.blobHash)\"")
        }
        let file: DerivativeCache.CachedFile
        if let queue {
            file = try await sharedRendition(of: asset, queue)
        } else {
            file = try await derivedVideo(try renditionJob(asset))
        }
        return Derivative(path: file.path, mimeType: "video/mp4", size: nil, etag: file.etag)
    }

    /// The movie's H.264/AAC MP4 rendition, made even for a movie browsers play as it is: what a
    /// pick under the `compatible` preset gives, as UIKit's compatible export transcodes whatever
    /// the original's codecs, and what a pick that removes metadata gives, since the rendition
    /// keeps none of the container's tags (location, device and captions are one block there).
    public func rendition(of id: String, owner: Owner?) async throws(LibraryError) -> Derivative {
        let asset = try await movie(id, owner: owner)
        guard asset.isBrowserPlayable == true else { return try await playableVideo(of: id, owner: nil) }
        let file = try await derivedVideo(try renditionJob(asset))
        return Derivative(path: file.path, mimeType: "video/mp4", size: nil, etag: file.etag)
    }

    /// The movie cut to its stored trim range, as an H.264/AAC MP4; the original when untrimmed.
    public func trimmedVideo(of id: String, owner: Owner?) async throws(LibraryError) -> Derivative {
        let asset = try await catalog.visibleAsset(id, to: owner)
        guard case .trim(let start, let end) = asset.edit else { return try await playableVideo(of: id, owner: nil) }
        return try await trimmedVideo(of: asset, start: start, end: end)
    }

    /// The movie cut to `start..<end` seconds, whatever trim it has stored now: what a link made
    /// for that range serves.
    public func trimmedVideo(of asset: Asset, start: Double, end: Double) async throws(LibraryError) -> Derivative {
        try Edit.trim(start: start, end: end).validate(for: asset)
        let container = try Library.container(of: asset)
        let job = videoJob(asset, key: DerivativeKey.trimmed(start: start, end: end)) { source, output, progress throws(VideoError) in
            try await self.options.video.trim(source, format: container, start: start, end: end, to: output, progress: progress)
        }
        let file = try await derivedVideo(job)
        return Derivative(path: file.path, mimeType: "video/mp4", size: nil, etag: file.etag)
    }

    /// Where the playable rendition of a movie stands.
    public func renditionStatus(of id: String, owner: Owner?) async throws(LibraryError) -> RenditionStatus {
        try await renditionStatus(try await movie(id, owner: owner))
    }

    /// Starts making the playable rendition in the background, unless it is ready, under way
    /// or failed.
    public func startRendition(of id: String, owner: Owner?) async throws(LibraryError) -> RenditionStatus {
        let asset = try await movie(id, owner: owner)
        if try await renditionStatus(asset) == .notStarted {
            let job = try renditionJob(asset)
            if let queue {
                try await storage { () async throws(StorageError) in try await queue.enqueue(asset.blobHash, DerivativeKey.playable) }
            } else {
                await jobs.start(job.key, job.make)
            }
        }
        return try await renditionStatus(asset)
    }

    /// Forgets how the rendition (and any trim) of a movie failed and starts making it again:
    /// the one way a failed rendition is tried again.
    public func retryRendition(of id: String, owner: Owner?) async throws(LibraryError) -> RenditionStatus {
        let asset = try await movie(id, owner: owner)
        if try await renditionStatus(asset) != .ready {
            let job = try renditionJob(asset)
            if let queue {
                try await storage { () async throws(StorageError) in
                    try await queue.enqueue(asset.blobHash, DerivativeKey.playable, retry: true)
                }
            } else {
                await jobs.retry(job.key, job.make)
            }
        }
        return try await renditionStatus(asset)
    }

    func movie(_ id: String, owner: Owner?) async throws(LibraryError) -> Asset {
        let asset = try await catalog.visibleAsset(id, to: owner)
        _ = try Library.container(of: asset)
        return asset
    }

    private func renditionStatus(_ asset: Asset) async throws(LibraryError) -> RenditionStatus {
        if asset.isBrowserPlayable == true { return .ready }
        let hash = asset.blobHash
        if await lane.run({ [cache] in cache.lookup(hash, DerivativeKey.playable) != nil }) { return .ready }
        if let queue {
            switch try await storage({ () async throws(StorageError) in try await queue.standing(hash, DerivativeKey.playable) }) {
            case .done: return .ready
            case .running(let progress): return .making(progress: progress)
            case .queued: return .making(progress: 0)
            case .failed(let error): return .failed(error)
            case .none: return .notStarted
            }
        }
        switch await jobs.state(VideoJobs.Key(hash: asset.blobHash, derivative: DerivativeKey.playable)) {
        case .running(let progress): return .making(progress: progress)
        case .failed(let error): return .failed(error)
        case nil: return .notStarted
        }
    }

    func renditionJob(_ asset: Asset) throws(LibraryError) -> VideoJob {
        let container = try Library.container(of: asset)
        return videoJob(asset, key: DerivativeKey.playable) { source, output, progress throws(VideoError) in
            try await self.options.video.makePlayable(source, format: container, to: output, progress: progress)
        }
    }

    struct VideoJob {
        var key: VideoJobs.Key
        var make: VideoJobs.Make
    }

    /// `make` writes the output from the original into a temp file, which then goes into the
    /// derivative cache. What ffmpeg said when it failed goes to the log, never to the caller.
    func videoJob(
        _ asset: Asset, key: String,
        _ make: @escaping @Sendable (String, String, @escaping @Sendable (Double) -> Void) async throws(VideoError) -> Void
    ) -> VideoJob {
        let (hash, id, log) = (asset.blobHash, asset.id, options.log)
        return VideoJob(key: VideoJobs.Key(hash: hash, derivative: key)) { [blobs, staging, cache, lane] progress throws(LibraryError) in
            // A job started just as the last one put its output in place has nothing to do.
            if let file = await lane.run({ cache.lookup(hash, key) }) { return file }
            let (source, output, fd) = try await lane.run { () throws(LibraryError) in
                do throws(StorageError) {
                    let source = try blobs.localFile(hash)
                    let (output, fd) = try staging.makeTemporaryFile(suffix: ".mp4")
                    return (source, output, fd)
                } catch {
                    throw LibraryError(error)
                }
            }
            close(fd)
            do throws(VideoError) {
                try await make(source, output, progress)
            } catch {
                unlink(output)
                throw Library.reported(error, "\(key) of asset \(id)", log)
            }
            return try await lane.run { () throws(LibraryError) in try cache.adopt(hash, key, from: output) }
        }
    }

    func derivedVideo(_ job: VideoJob) async throws(LibraryError) -> DerivativeCache.CachedFile {
        let (hash, key) = (job.key.hash, job.key.derivative)
        if let file = await lane.run({ [cache] in cache.lookup(hash, key) }) { return file }
        // A whole movie's rendition is every later asker's too: it goes on when its client goes.
        return try await jobs.run(job.key, keptWhenAbandoned: job.key.derivative == DerivativeKey.playable, job.make)
    }
}

extension Library {
    /// The movie's container, which every tool reading it is told; anything else is no movie.
    static func container(of asset: Asset) throws(LibraryError) -> ContainerFormat {
        guard case .movie(let container) = asset.format else { throw LibraryError(.invalidRequest, "Only movies can be played.") }
        return container
    }
}
