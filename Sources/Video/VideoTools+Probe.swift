import Foundation
import Synchronization

extension VideoTools {
    /// What the video is: container, codecs, duration, displayed size and rotation.
    /// - Throws: `.corrupt` when ffprobe cannot read it or it has no video stream.
    public func probe(_ path: String, format: ContainerFormat) async throws(VideoError) -> VideoInfo {
        try await probeDetails(path, format: format).info
    }

    /// The probe plus the stream indexes that posters and renditions must use; a file probed
    /// lately (and not changed since) is not probed again.
    func probeDetails(_ path: String, format: ContainerFormat) async throws(VideoError) -> ProbedVideo {
        let key = await fileChecks.run { ProbeMemo.Key(path, format) }
        if let key, let known = probes.probe(of: key) { return known }
        let probed = try await probeAnew(path, format: format)
        if let key { probes.remember(probed, of: key) }
        return probed
    }

    private func probeAnew(_ path: String, format: ContainerFormat) async throws(VideoError) -> ProbedVideo {
        let output = try await runProbe(
            FFmpegArguments.probe(path, format: format), stdoutLimit: Self.probeOutputLimit)
        guard output.succeeded, !output.stdoutOverflowed,
            let parsed = try? JSONDecoder().decode(ProbeOutput.self, from: output.stdout)
        else {
            throw VideoError(.corrupt, "The video could not be read.", detail: output.stderrTail)
        }
        guard let video = parsed.videoStream else {
            throw VideoError(.corrupt, "The file has no video stream.", detail: output.stderrTail)
        }
        let duration: Double
        if let declared = ProbedVideo.declaredDuration(parsed) {
            duration = declared
        } else {
            duration = try await measuredDuration(path, format: format, stream: video.index)
        }
        guard let probed = ProbedVideo(parsed, container: format, duration: duration) else {
            throw VideoError(
                .corrupt, "The video stream has no usable picture size.", detail: output.stderrTail)
        }
        return probed
    }

    /// The end of the last packet of `stream`: slower than reading the header, but right for files
    /// whose header is missing the duration or lies about it.
    private func measuredDuration(
        _ path: String, format: ContainerFormat, stream: Int
    ) async throws(VideoError) -> Double {
        let end = Mutex(0.0)
        let output = try await runProbe(
            FFmpegArguments.packetTimes(path, format: format, stream: stream)
        ) { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard let pts = fields.first.flatMap({ Double($0) }), pts.isFinite else { return }
            // MediaRecorder WebM has no packet durations ("N/A"); its last pts is close enough.
            let length = fields.dropFirst().first.flatMap { Double($0) }.map { $0.isFinite ? $0 : 0 } ?? 0
            end.withLock { $0 = max($0, pts + length) }
        }
        let seconds = end.withLock { $0 }
        guard output.succeeded, seconds > 0 else {
            throw VideoError(.corrupt, "The video has no readable frames.", detail: output.stderrTail)
        }
        // Packet times are the file's to state, as its header's duration is, and held to the same
        // day: every later step (ffmpeg's deadline, the stream's segments, a trim's name) counts
        // in them.
        guard seconds <= ProbedVideo.maximumDuration else {
            throw VideoError(.corrupt, "The video's frames are stamped over more than a day.", detail: output.stderrTail)
        }
        return seconds
    }

    private func runProbe(
        _ arguments: [String], stdoutLimit: Int = 0, onLine: (@Sendable (String) -> Void)? = nil
    ) async throws(VideoError) -> ProcessRunner.Output {
        try await probeJobs.withSlot { () async throws(VideoError) in
            try await runner.run(
                .ffprobe, executable: ffprobe, arguments: arguments, stdoutLimit: stdoutLimit, onLine: onLine)
        }
    }

    /// ffprobe's JSON for a real video is a few kilobytes; a file with thousands of streams is an
    /// attack on our memory, not a video.
    private static let probeOutputLimit = 4 * 1024 * 1024
}
