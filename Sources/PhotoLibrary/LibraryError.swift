import Imaging
public import Storage
import Video

/// Why the library refused or failed. `code` is stable: the command line prints it and the
/// server answers with it; `message` is for people and never carries a path; `detail` is the
/// underlying cause's own words (a decoder's, a database's, errno's), for the operator's log and
/// never for a client.
public struct LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// A code as it was stored (a rendition job's failure, by `description`).
        init(stored name: String) { self.name = name }

        /// The bytes are none of the allowed image or video formats.
        public static let unsupportedType = Code("unsupported_type")
        /// Over the pixel or byte limit.
        public static let tooLarge = Code("too_large")
        /// The file ends before its data does.
        public static let truncated = Code("truncated")
        /// The decoder refused the data.
        public static let corrupt = Code("corrupt")
        /// A zero-byte file.
        public static let empty = Code("empty")
        /// No such asset, or the file to import does not exist.
        public static let notFound = Code("not_found")
        /// A change the item's state does not allow (renaming the Camera Roll, deleting for
        /// good what is not in the trash).
        public static let notAllowed = Code("not_allowed")
        /// An edit that does not fit its asset.
        public static let invalidEdit = Code("invalid_edit")
        /// A request the library cannot honour (an impossible size, a video job that timed out).
        public static let invalidRequest = Code("invalid_request")
        /// The disk is full.
        public static let noSpace = Code("no_space")
        /// Reading or writing files failed.
        public static let io = Code("io")
        /// The database failed.
        public static let database = Code("database")
        /// A helper program (ffmpeg, ffprobe) is missing.
        public static let toolMissing = Code("tool_missing")
        /// A video job ran out of time.
        public static let timeout = Code("timeout")
        /// The database or the blob store cannot be reached or did not answer in time: nothing
        /// was done, and the same request may succeed in a moment.
        public static let storageUnavailable = Code("storage_unavailable")

        /// A resumable upload's piece that does not start where the upload is, or that another
        /// request brought first.
        public static let uploadConflict = Code("upload_conflict")
        /// A piece whose bytes are not those its checksum names.
        public static let checksumMismatch = Code("checksum_mismatch")
        /// Too many resumable uploads open from one client.
        public static let tooManyUploads = Code("too_many_uploads")

        public var description: String { name }
    }

    public let code: Code
    public let message: String
    public let detail: String?

    public init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    /// Errors are the same when their code and message are: the cause's words vary by machine.
    public static func == (left: LibraryError, right: LibraryError) -> Bool {
        left.code == right.code && left.message == right.message
    }

    public var description: String { "\(code): \(message)" + (detail.map { " (\($0))" } ?? "") }

    init(_ error: ImagingError) {
        let code: Code =
            switch error.code {
            case .unsupportedType: .unsupportedType
            case .tooLarge: .tooLarge
            case .truncated: .truncated
            case .invalidRequest: .invalidRequest
            case .unreadable: .io
            default: .corrupt
            }
        self.init(code, error.message, detail: error.detail)
    }

    init(_ error: VideoError) {
        let code: Code =
            switch error.code {
            case .unsupportedType: .unsupportedType
            case .corrupt: .corrupt
            case .timeout: .timeout
            case .toolMissing: .toolMissing
            case .invalidRequest: .invalidRequest
            default: .corrupt
            }
        self.init(code, error.message, detail: error.detail)
    }

    public init(_ error: StorageError) {
        let code: Code =
            switch error.code {
            case .noSpace: .noSpace
            case .notFound: .notFound
            case .tooLarge: .tooLarge
            case .io: .io
            case .unavailable: .storageUnavailable
            default: .database
            }
        self.init(code, error.message, detail: error.detail)
    }
}
