/// Why an image could not be probed or rendered. `code` is stable (clients match on it);
/// `message` is for people and never carries a file path.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String {
            case unsupportedType = "unsupported_type"
            case tooLarge = "too_large"
            case truncated
            case corrupt
            case unreadable
            case invalidRequest = "invalid_request"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Not one of the image formats on the allow-list.
        public static let unsupportedType = Code(.unsupportedType)
        /// More pixels than the configured limit, refused from the header.
        public static let tooLarge = Code(.tooLarge)
        /// The file ends before its image data does.
        public static let truncated = Code(.truncated)
        /// The decoder refused the data.
        public static let corrupt = Code(.corrupt)
        /// The file could not be read at all.
        public static let unreadable = Code(.unreadable)
        /// The caller asked for something impossible (a crop outside the image, an empty box).
        public static let invalidRequest = Code(.invalidRequest)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
