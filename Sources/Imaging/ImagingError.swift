public import Failures
import Foundation

/// Why an image could not be probed or rendered. The message is plain words, never a
/// decoder's own text or a file path; what the decoder said goes in `detail`, for logs.
public typealias ImagingError = Failure<ImagingFailures>

/// Its codes:
/// - `unsupportedType`: not one of the image formats on the allow-list.
/// - `tooLarge`: more pixels than the configured limit, refused from the header.
/// - `truncated`: the file ends before its image data does.
/// - `corrupt`: the decoder refused the data.
/// - `unreadable`: the file could not be read at all.
/// - `invalidRequest`: the caller asked for something impossible (a crop outside the image, an
///   empty box).
public enum ImagingFailures: FailureDomain {
    /// Decoders' messages may name the file they read, and libvips' error buffer, shared by all
    /// threads, may even hold another file's: no path reaches a log line either.
    public static func cleaned(detail: String) -> String? {
        let cleaned = withoutPaths(detail.split(separator: "\n").first ?? "").trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? nil : String(cleaned.prefix(200))
    }
}

extension ImagingError.Code {
    public static let unsupportedType = Self("unsupported_type"), tooLarge = Self("too_large"), truncated = Self("truncated")
    public static let corrupt = Self("corrupt"), unreadable = Self("unreadable"), invalidRequest = Self("invalid_request")

    /// The code whose `description` is `name`, as a child process reports it.
    public init?(reported name: String) {
        let codes: [Self] = [.unsupportedType, .tooLarge, .truncated, .corrupt, .unreadable, .invalidRequest]
        guard let code = codes.first(where: { $0.description == name }) else { return nil }
        self = code
    }
}

extension ImagingError {
    package static let undecodable = "The image data is damaged and cannot be decoded."

    static func truncated(detail: String? = nil) -> ImagingError {
        ImagingError(.truncated, "The image file ends before its data does.", detail: detail)
    }
}
