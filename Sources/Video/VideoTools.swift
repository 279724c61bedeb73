import Executors
import Foundation

/// ffprobe and ffmpeg, run as child processes with forced formats, deadlines and a bounded
/// number of jobs at once.
///
/// Copies share their job limits, so one value can be handed to every part of the app.
public struct VideoTools: Sendable {
    public let ffmpeg: String
    public let ffprobe: String
    /// The longest any one ffmpeg or ffprobe process may run.
    public let timeout: Duration
    /// What a rendition or trim may run on top of `timeout` for each second of video it makes: a
    /// five-minute 1080p HEVC movie takes two cores over three minutes to encode, which a fixed
    /// limit stopped every time, so that it never played.
    public let timeoutPerVideoSecond: Duration
    /// Jobs of each kind at once: by default one per core, which ffmpeg keeps busy.
    public let maxConcurrentJobs: Int

    /// Slots for ffmpeg (posters, renditions, trims), which can take minutes and all the CPU.
    let encodeJobs: JobLimiter
    /// Slots for ffprobe. A limit of its own because probes are short and sit on the upload path:
    /// behind a queue of transcodes, an upload would wait minutes for a millisecond's work.
    let probeJobs: JobLimiter
    /// Slots for the segments of streamed movies: a second's work each, which a person watches
    /// the player wait for, so they never queue behind a rendition of many minutes.
    let streamJobs: JobLimiter
    let probes = ProbeMemo()
    /// Where a file is looked at on disk before its probe is looked up (a stat, which may wait on
    /// the disk): never the cooperative pool. The child processes have threads of their own.
    let fileChecks = BlockingExecutor<Void>(name: "video files", threads: 1)

    public init(
        ffmpeg: String = "/usr/bin/ffmpeg", ffprobe: String = "/usr/bin/ffprobe",
        timeout: Duration = .seconds(120), timeoutPerVideoSecond: Duration = .seconds(3),
        maxConcurrentJobs: Int? = nil
    ) {
        self.timeoutPerVideoSecond = timeoutPerVideoSecond
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
        self.timeout = timeout
        self.maxConcurrentJobs = max(1, maxConcurrentJobs ?? ProcessInfo.processInfo.activeProcessorCount)
        encodeJobs = JobLimiter(limit: self.maxConcurrentJobs)
        probeJobs = JobLimiter(limit: self.maxConcurrentJobs)
        streamJobs = JobLimiter(limit: self.maxConcurrentJobs)
    }

    var runner: ProcessRunner { ProcessRunner(timeout: timeout) }

    /// The versions of both tools, as they print them (`5.1.9-0+deb12u1`).
    public func versions() async throws(VideoError) -> (ffmpeg: String, ffprobe: String) {
        (try await version(.ffmpeg, executable: ffmpeg), try await version(.ffprobe, executable: ffprobe))
    }

    private func version(_ tool: ProcessRunner.Tool, executable: String) async throws(VideoError) -> String {
        let output = try await probeJobs.withSlot { () async throws(VideoError) in
            try await runner.run(
                tool, executable: executable, arguments: FFmpegArguments.version(tool), stdoutLimit: 4096)
        }
        let firstLine = String(decoding: output.stdout, as: UTF8.self).prefix { $0 != "\n" }
        let prefix = "\(tool.rawValue) version "
        guard output.succeeded, firstLine.hasPrefix(prefix),
            let version = firstLine.dropFirst(prefix.count).split(separator: " ").first
        else {
            throw VideoError(
                .failed, "\(tool.rawValue) did not report its version.", detail: output.stderrTail)
        }
        return String(version)
    }
}
