import Foundation

extension VideoTools {
    /// Runs ffmpeg in a slot of `slots` (the encode slots unless said), for at most `timeout`
    /// and `timeoutPerVideoSecond` for each of the `videoSeconds` it makes, at `niceness`. On any failure the output is deleted, so a half-written file
    /// never looks like a finished one.
    /// - Returns: whether the output exists and is not empty (ffmpeg succeeds without writing
    ///   anything when, for instance, a seek lands past the last frame).
    func runFFmpeg(
        _ arguments: [String], output: String, slots: JobLimiter? = nil, videoSeconds: Double = 0, niceness: Int32 = 0,
        onLine: (@Sendable (String) -> Void)? = nil
    ) async throws(VideoError) -> Bool {
        let runner = ProcessRunner(timeout: limit(forVideoSeconds: videoSeconds), niceness: niceness)
        do throws(VideoError) {
            let result = try await (slots ?? encodeJobs).withSlot { () async throws(VideoError) in
                try await runner.run(.ffmpeg, executable: ffmpeg, arguments: arguments, onLine: onLine)
            }
            guard result.succeeded else { throw Self.failure(result) }
        } catch {
            removeOutput(output)
            throw error
        }
        let size = try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
        guard let size, size > 0 else {
            removeOutput(output)
            return false
        }
        return true
    }

    /// How long an ffmpeg run that makes `seconds` of video may take.
    func limit(forVideoSeconds seconds: Double) -> Duration {
        timeout + timeoutPerVideoSecond * min(max(0, seconds.isFinite ? seconds : 0), ProbedVideo.maximumDuration)
    }

    func removeOutput(_ output: String) {
        try? FileManager.default.removeItem(atPath: output)
    }

    /// Blames the input when ffmpeg's last words are about reading or decoding it, and the job
    /// otherwise (an unwritable output, an encoder that refused).
    static func failure(_ result: ProcessRunner.Output) -> VideoError {
        if result.crashed || decodeFailures.contains(where: result.stderrTail.contains) {
            return VideoError(.corrupt, "The video could not be decoded.", detail: result.stderrTail)
        }
        return VideoError(.failed, "The video could not be converted.", detail: result.stderrTail)
    }

    /// Phrases of ffmpeg 5.1 that mean the input, not the job, is at fault.
    private static let decodeFailures = [
        "Invalid data found when processing input",
        "Error while decoding",
        "Cannot determine format of input stream",
        "Could not find codec parameters",
        "Decoder (codec",
        "moov atom not found",
    ]
}
