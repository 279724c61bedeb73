extension VideoTools {
    /// Writes one upright, full-size JPEG frame taken at `seconds` (the first frame when
    /// `seconds` is past the end).
    /// - Throws: `.corrupt` when no frame decodes, `.invalidRequest` for a negative time.
    public func poster(
        _ path: String, format: ContainerFormat, at seconds: Double = 0, to output: String
    ) async throws(VideoError) {
        guard seconds.isFinite, seconds >= 0 else {
            throw VideoError(.invalidRequest, "The poster time must be zero or more seconds.")
        }
        let video = try await probeDetails(path, format: format)
        let start = seconds < video.info.duration ? seconds : 0
        do {
            if try await writePoster(path, format: format, video: video, at: start, to: output) { return }
        } catch  where error.code == .corrupt && start > 0 {
            // The frames around `start` did not decode; the first frame still may.
        }
        if start > 0, try await writePoster(path, format: format, video: video, at: 0, to: output) { return }
        throw VideoError(.corrupt, "No frame of the video could be decoded.")
    }

    private func writePoster(
        _ path: String, format: ContainerFormat, video: ProbedVideo, at seconds: Double, to output: String
    ) async throws(VideoError) -> Bool {
        try await runFFmpeg(
            FFmpegArguments.poster(
                path, format: format, videoStream: video.videoStreamIndex, at: seconds, output: output),
            output: output)
    }
}
