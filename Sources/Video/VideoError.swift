/// Why a video could not be probed or rendered. `code` is stable (clients match on it);
/// `message` is for people and never carries a file path or ffmpeg's own words.
public struct VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String {
            case unsupportedType = "unsupported_type"
            case corrupt
            case timeout
            case toolMissing = "tool_missing"
            case failed
            case invalidRequest = "invalid_request"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Not one of the containers on the allow-list.
        public static let unsupportedType = Code(.unsupportedType)
        /// ffprobe or ffmpeg cannot read it, it has no video stream, or no frame decodes.
        public static let corrupt = Code(.corrupt)
        /// The job ran longer than the configured limit and was stopped.
        public static let timeout = Code(.timeout)
        /// ffmpeg or ffprobe is not installed where we were told to look.
        public static let toolMissing = Code(.toolMissing)
        /// The job failed for a reason that is not the input's fault (output not writable, cancelled).
        public static let failed = Code(.failed)
        /// The caller asked for something impossible (a trim range outside the video).
        public static let invalidRequest = Code(.invalidRequest)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// What the tool said (the tail of its standard error, a path): for the log, never for clients.
    public let detail: String?

    public init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    public var description: String { "\(code): \(message)" }
}
