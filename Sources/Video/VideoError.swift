public import Failures

/// Why a video could not be probed or rendered. The message never carries a file path or
/// ffmpeg's own words; `detail` (the tail of its standard error) is for the log alone.
public typealias VideoError = Failure<VideoFailures>

/// Its codes:
/// - `unsupportedType`: not one of the containers on the allow-list.
/// - `corrupt`: ffprobe or ffmpeg cannot read it, it has no video stream, or no frame decodes.
/// - `timeout`: the job ran longer than the configured limit and was stopped.
/// - `toolMissing`: ffmpeg or ffprobe is not installed where we were told to look.
/// - `failed`: the job failed for a reason that is not the input's fault (output not writable,
///   cancelled).
/// - `invalidRequest`: the caller asked for something impossible (a trim range outside the video).
public enum VideoFailures: FailureDomain {
    /// ffmpeg's and ffprobe's standard error names the files they read and wrote.
    public static func cleaned(detail: String) -> String? {
        detail.isEmpty ? nil : detail.split(separator: "\n", omittingEmptySubsequences: false).map(withoutPaths).joined(separator: "\n")
    }
}

extension VideoError.Code {
    public static let unsupportedType = Self("unsupported_type"), corrupt = Self("corrupt"), timeout = Self("timeout")
    public static let toolMissing = Self("tool_missing"), failed = Self("failed"), invalidRequest = Self("invalid_request")
}
