import Foundation

/// Why an image could not be probed or rendered. `code` is stable (clients match on it);
/// `message` is for people: plain words, never a decoder's own text or a file path. What the
/// decoder said goes in `detail`, for logs.
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

        /// The code whose `description` is `name`, as a child process reports it.
        public init?(_ name: String) {
            guard let base = Base(rawValue: name) else { return nil }
            self.base = base
        }

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
    /// The decoder's own words, paths removed; nil when there is nothing beyond the message.
    public let detail: String?

    public init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail.flatMap(Self.withoutPaths)
    }

    public var description: String { "\(code): \(message)" + (detail.map { " (\($0))" } ?? "") }

    /// The same code and message: the detail is what a decoder said this time, for the log.
    public static func == (lhs: ImagingError, rhs: ImagingError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    package static let undecodable = "The image data is damaged and cannot be decoded."

    static func truncated(detail: String? = nil) -> ImagingError {
        ImagingError(.truncated, "The image file ends before its data does.", detail: detail)
    }

    /// Decoders' messages may name the file they read, and libvips' error buffer, shared by all
    /// threads, may even hold another file's: no path reaches a log line either.
    private static func withoutPaths(_ text: String) -> String? {
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        let cleaned = firstLine.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("/") || $0.hasPrefix("\"/") ? "file:" : String($0) }.joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? nil : String(cleaned.prefix(200))
    }
}
