public import Video

extension MediaJobs {
    /// How the movie is cut for streaming while nothing the browser plays exists yet. Asked for
    /// when a player starts, it starts the whole rendition too, in the background (at the lowest
    /// priority, so the stream's segments come first): the next play is a plain file.
    public func streamLayout(of id: String, owner: Owner?) async throws(LibraryError) -> StreamLayout {
        let asset = try await movie(id, owner: owner)
        let container = try Library.container(of: asset)
        let source = try await original(of: asset)
        let layout: StreamLayout
        do throws(VideoError) {
            layout = try await options.video.streamLayout(source, format: container)
        } catch {
            throw Library.reported(error, "stream layout of asset \(asset.id)", options.log)
        }
        _ = try await startRendition(of: id, owner: nil)
        return layout
    }

    /// Segment `index` of the movie's stream, made on first request and then served from the
    /// derivative cache (so a second play gets the same bytes); two requests for it share one run.
    public func streamSegment(of id: String, index: Int, owner: Owner?) async throws(LibraryError) -> Derivative {
        let asset = try await movie(id, owner: owner)
        let container = try Library.container(of: asset)
        let job = videoJob(asset, key: DerivativeKey.streamSegment(index)) { source, output, _ throws(VideoError) in
            try await self.options.video.streamSegment(source, format: container, index: index, to: output)
        }
        let file = try await derivedVideo(job)
        return Derivative(path: file.path, mimeType: "video/mp4", size: nil, etag: file.etag)
    }

    /// A part of a segment as an HLS playlist names it: the initialization (`EXT-X-MAP`) or the media.
    public enum StreamPart: Sendable {
        case initialization, media
    }

    /// That part of segment `index` (`FragmentedMP4`): a range of the cached segment, found by
    /// reading its boxes' headers, and sent from the file.
    public func streamSegment(of id: String, index: Int, part: StreamPart, owner: Owner?) async throws(LibraryError) -> Derivative {
        let segment = try await streamSegment(of: id, index: index, owner: owner)
        guard let (offset, size) = await lane.run({ FragmentedMP4.firstFragmentOffset(ofFileAt: segment.path) }) else {
            throw LibraryError(.io, "A part of the video's stream is damaged.")
        }
        // The segment's validator, told apart by part: the two are never the same bytes.
        let etag = String(segment.etag.dropLast()) + (part == .initialization ? "-init\"" : "-media\"")
        return Derivative(
            path: segment.path, mimeType: "video/mp4", size: nil, etag: etag, range: part == .initialization ? 0..<offset : offset..<size)
    }
}
