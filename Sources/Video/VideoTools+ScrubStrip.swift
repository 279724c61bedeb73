extension VideoTools {
    /// Frames in a scrub strip, evenly spread over the movie.
    public static let scrubStripFrames = 20
    /// The width of each frame of a scrub strip; its height keeps the displayed shape.
    public static let scrubStripFrameWidth = 160

    /// Writes the movie's scrub strip: `scrubStripFrames` small upright frames side by side in one
    /// JPEG, for a seek preview and the trim screen's filmstrip. Only keyframes are decoded (a
    /// phone writes one a second or so), so a long HEVC movie's strip takes about a second, not a
    /// decode of every frame.
    public func scrubStrip(_ path: String, format: ContainerFormat, to output: String) async throws(VideoError) {
        let video = try await probeDetails(path, format: format)
        let width = Self.scrubStripFrameWidth
        let height = max(2, min(4 * width, Int((Double(width * video.info.height) / Double(video.info.width) / 2).rounded()) * 2))
        let arguments = FFmpegArguments.scrubStrip(
            path, format: format, videoStream: video.videoStreamIndex, duration: video.info.duration,
            frames: Self.scrubStripFrames, width: width, height: height, output: output)
        guard try await runFFmpeg(arguments, output: output, videoSeconds: video.info.duration / 10) else {
            throw VideoError(.corrupt, "No frame of the video could be decoded.")
        }
    }
}
