extension VideoTools {
    /// How `path` is cut for streaming.
    public func streamLayout(_ path: String, format: ContainerFormat) async throws(VideoError) -> StreamLayout {
        StreamLayout(try await probeDetails(path, format: format))
    }

    /// Writes segment `index` of the stream (`StreamLayout`) to `output`.
    /// - Throws: `.invalidRequest` for an index past the end.
    public func streamSegment(
        _ path: String, format: ContainerFormat, index: Int, to output: String
    ) async throws(VideoError) {
        let video = try await probeDetails(path, format: format)
        let layout = StreamLayout(video)
        guard let (start, length) = layout.segment(index) else {
            throw VideoError(.invalidRequest, "The video has \(layout.segmentCount) segments; there is no segment \(index).")
        }
        let arguments = FFmpegArguments.streamSegment(
            path, format: format, videoStream: video.videoStreamIndex, audioStream: video.audioStreamIndex,
            start: start, length: length, width: layout.width, height: layout.height, output: output)
        guard try await runFFmpeg(arguments, output: output, slots: streamJobs) else {
            throw VideoError(.corrupt, "No frame of this part of the video could be decoded.")
        }
    }
}
