import ChildProcess
import Foundation

/// Runs ffmpeg or ffprobe as a child process with a deadline; what goes wrong with the running
/// itself becomes a `VideoError`.
struct ProcessRunner: Sendable {
    enum Tool: String, Sendable {
        case ffmpeg, ffprobe
    }

    typealias Output = ChildProcess.Output

    var timeout: Duration
    /// The child's nice value (`ChildProcess.niceness`).
    var niceness: Int32 = 0

    /// Runs `executable` and returns once it has exited and both pipes are drained.
    /// - Parameters:
    ///   - stdoutLimit: bytes of standard output to keep; the rest is read and dropped.
    ///   - onLine: sees every line of standard output as it arrives.
    func run(
        _ tool: Tool, executable: String, arguments: [String], stdoutLimit: Int = 0,
        onLine: (@Sendable (String) -> Void)? = nil
    ) async throws(VideoError) -> Output {
        do {
            // A fixed environment: FFREPORT would make ffmpeg write a log file wherever it points,
            // and colour codes would garble the stderr we keep.
            var child = ChildProcess(timeout: timeout)
            child.niceness = niceness
            return try await child.run(
                executable: executable, arguments: arguments, environment: ["LC_ALL": "C", "AV_LOG_FORCE_NOCOLOR": "1"],
                stdoutLimit: stdoutLimit, onLine: onLine)
        } catch {
            switch error {
            case .missing:
                throw VideoError(.toolMissing, "\(tool.rawValue) is not installed; `make install-deps` installs it.", detail: executable)
            case .didNotStart(let reason):
                throw VideoError(
                    .failed, "The video could not be processed: its tool did not start.", detail: "\(tool.rawValue): \(reason)")
            case .timedOut(let stderrTail):
                throw VideoError(.timeout, "The video took too long to process and was stopped.", detail: "\(tool.rawValue): \(stderrTail)")
            case .cancelled:
                throw VideoError(.failed, "The job was cancelled.")
            }
        }
    }
}
