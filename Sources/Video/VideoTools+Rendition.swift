extension VideoTools {
    /// Writes the browser-playable rendition: H.264 + AAC (when the source has audio) in MP4,
    /// `faststart`, upright. An upright H.264 movie is remuxed (its video copied as it is); any
    /// other is encoded, upright and even-sized.
    /// - Parameter progress: fractions from 0 to 1, on a background thread; 1 once it is written.
    public func makePlayable(
        _ path: String, format: ContainerFormat, to output: String,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(VideoError) {
        let video = try await probeDetails(path, format: format)
        guard video.isRemuxable else {
            return try await render(path, format: format, video: video, range: nil, to: output, progress: progress)
        }
        let reporter = ProgressReporter(totalSeconds: video.info.duration, report: progress)
        let arguments = FFmpegArguments.remux(
            path, format: format, videoStream: video.videoStreamIndex, audioStream: video.audioStreamIndex,
            copiesAudio: Playability.isPlayableInMP4(audioCodec: video.info.audioCodec), output: output)
        guard
            try await runFFmpeg(
                arguments, output: output, videoSeconds: video.info.duration, niceness: Self.longJobNiceness, onLine: reporter.consume)
        else {
            throw VideoError(.corrupt, "No frame of the video could be decoded.")
        }
        reporter.finish()
    }

    /// Writes [start, end) of the video as the same rendition `makePlayable` makes, cut at exact
    /// frames (the range is re-encoded, not copied from keyframe to keyframe).
    /// - Throws: `.invalidRequest` unless 0 ≤ start < end ≤ duration.
    public func trim(
        _ path: String, format: ContainerFormat, start: Double, end: Double, to output: String,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(VideoError) {
        guard start.isFinite, end.isFinite, start >= 0, start < end else {
            throw VideoError(
                .invalidRequest, "The trim range must start at zero or later and end after it starts.")
        }
        let video = try await probeDetails(path, format: format)
        guard end <= video.info.duration + Self.trimTolerance else {
            throw VideoError(.invalidRequest, "The trim range ends after the video does.")
        }
        try await render(
            path, format: format, video: video, range: start...end, to: output, progress: progress)
    }

    /// Renditions and trims run at the lowest priority: they take minutes, and while one is made a
    /// person may be watching a stream, whose segments must come within a second.
    static let longJobNiceness: Int32 = 19

    /// Containers round durations to their timescale; a range ending a hair past the probed end
    /// is the user dragging the handle to the end.
    static let trimTolerance = 0.05

    private func render(
        _ path: String, format: ContainerFormat, video: ProbedVideo, range: ClosedRange<Double>?,
        to output: String, progress: @escaping @Sendable (Double) -> Void
    ) async throws(VideoError) {
        let total = range.map { $0.upperBound - $0.lowerBound } ?? video.info.duration
        let reporter = ProgressReporter(totalSeconds: total, report: progress)
        let arguments = FFmpegArguments.rendition(
            path, format: format, videoStream: video.videoStreamIndex, audioStream: video.audioStreamIndex,
            range: range, output: output)
        guard
            try await runFFmpeg(arguments, output: output, videoSeconds: total, niceness: Self.longJobNiceness, onLine: reporter.consume)
        else {
            throw VideoError(.corrupt, "No frame of the video could be decoded.")
        }
        reporter.finish()
    }
}
