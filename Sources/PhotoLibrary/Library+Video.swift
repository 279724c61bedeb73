import Foundation
import Storage
import Video

extension Library {
    /// A file browsers can play: the original when they play it as it is, else an H.264/AAC MP4
    /// rendition, made on first request (this waits for it) and cached.
    public func playableVideo(of id: String) async throws(LibraryError) -> Derivative {
        let asset = try asset(id)
        guard asset.mediaType == .movie, let container = ContainerFormat(rawValue: asset.format) else {
            throw LibraryError(.invalidRequest, "Only movies can be played.")
        }
        if asset.isBrowserPlayable == true {
            return Derivative(path: originalPath(of: asset), mimeType: asset.mimeType, size: nil, etag: "\"\(asset.blobHash)\"")
        }
        let file = try await derivedVideo(asset, key: DerivativeKey.playable) { source, output, progress throws(VideoError) in
            try await self.options.video.makePlayable(source, format: container, to: output, progress: progress)
        }
        return Derivative(path: file.path, mimeType: "video/mp4", size: nil, etag: file.etag)
    }

    /// The movie cut to its stored trim range, as an H.264/AAC MP4; the original when untrimmed.
    public func trimmedVideo(of id: String) async throws(LibraryError) -> Derivative {
        let asset = try asset(id)
        guard case .trim(let start, let end) = asset.edit else { return try await playableVideo(of: id) }
        return try await trimmedVideo(of: asset, start: start, end: end)
    }

    /// The movie cut to `start..<end` seconds, whatever trim it has stored now: what a link made
    /// for that range serves.
    public func trimmedVideo(of asset: Asset, start: Double, end: Double) async throws(LibraryError) -> Derivative {
        try Edit.trim(start: start, end: end).validate(for: asset)
        guard let container = ContainerFormat(rawValue: asset.format) else {
            throw LibraryError(.invalidRequest, "Only movies can be played.")
        }
        let file = try await derivedVideo(asset, key: DerivativeKey.trimmed(start: start, end: end)) {
            source, output, progress throws(VideoError) in
            try await self.options.video.trim(source, format: container, start: start, end: end, to: output, progress: progress)
        }
        return Derivative(path: file.path, mimeType: "video/mp4", size: nil, etag: file.etag)
    }

    /// How far the playable rendition of a movie has got (0...1), or nil when none is being made.
    public func renditionProgress(of id: String) async throws(LibraryError) -> Double? {
        let asset = try asset(id)
        return await jobs.fraction("\(asset.blobHash)/\(DerivativeKey.playable)")
    }

    /// Whether the playable rendition is ready to serve without waiting.
    public func hasPlayableVideo(of id: String) throws(LibraryError) -> Bool {
        let asset = try asset(id)
        return asset.isBrowserPlayable == true || derived.lookup(asset.blobHash, DerivativeKey.playable) != nil
    }

    private func derivedVideo(
        _ asset: Asset, key: String,
        _ make: @escaping @Sendable (String, String, @escaping @Sendable (Double) -> Void) async throws(VideoError) -> Void
    ) async throws(LibraryError) -> DerivativeCache.CachedFile {
        if let file = derived.lookup(asset.blobHash, key) { return file }
        let source = originalPath(of: asset)
        let hash = asset.blobHash
        return try await jobs.run("\(hash)/\(key)") { [blobs, derived] progress throws(LibraryError) -> DerivativeCache.CachedFile in
            let (output, fd) = try Self.temporaryFile(blobs, suffix: ".mp4")
            close(fd)
            do throws(VideoError) {
                try await make(source, output, progress)
            } catch {
                unlink(output)
                throw LibraryError(error)
            }
            return try derived.adopt(hash, key, from: output)
        }
    }

    private static func temporaryFile(_ blobs: BlobStore, suffix: String) throws(LibraryError) -> (String, Int32) {
        do throws(StorageError) {
            return try blobs.makeTemporaryFile(suffix: suffix)
        } catch {
            throw LibraryError(error)
        }
    }
}
