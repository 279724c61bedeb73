public import Failures
import Imaging
public import Storage
import Video

/// Why the library refused or failed. The command line prints the code and the server answers
/// with it; the message never carries a path; `detail` is the underlying cause's own words (a
/// decoder's, a database's, errno's), for the operator's log and never for a client.
public typealias LibraryError = Failure<LibraryFailures>

/// Its codes:
/// - `unsupportedType`: the bytes are none of the allowed image or video formats.
/// - `tooLarge`: over the pixel or byte limit.
/// - `truncated`: the file ends before its data does.
/// - `corrupt`: the decoder refused the data.
/// - `empty`: a zero-byte file.
/// - `notFound`: no such asset, or the file to import does not exist.
/// - `notYours`: a change to a shared album that the asker's role does not allow (a viewer adding,
///   an editor renaming, anyone but its owner sharing it).
/// - `notAllowed`: a change the item's state does not allow (renaming the Camera Roll, deleting for
///   good what is not in the trash).
/// - `invalidEdit`: an edit that does not fit its asset.
/// - `invalidRequest`: a request the library cannot honour (an impossible size, a video job that
///   timed out).
/// - `noSpace`: the disk is full.
/// - `io`: reading or writing files failed.
/// - `database`: the database failed.
/// - `toolMissing`: a helper program (ffmpeg, ffprobe) is missing.
/// - `timeout`: a video job ran out of time.
/// - `storageUnavailable`: the database or the blob store cannot be reached or did not answer in
///   time: nothing was done, and the same request may succeed in a moment.
/// - `uploadConflict`: a resumable upload's piece that does not start where the upload is, or that
///   another request brought first.
/// - `checksumMismatch`: a piece whose bytes are not those its checksum names.
/// - `tooManyUploads`: too many resumable uploads open from one client.
/// - `cancelled`: the asker went away before the work began, so it was not done.
public enum LibraryFailures: FailureDomain {}

extension LibraryError.Code {
    public static let unsupportedType = Self("unsupported_type"), tooLarge = Self("too_large"), truncated = Self("truncated")
    public static let corrupt = Self("corrupt"), empty = Self("empty"), notFound = Self("not_found")
    public static let notAllowed = Self("not_allowed"), invalidEdit = Self("invalid_edit")
    public static let notYours = Self("not_yours")
    public static let invalidRequest = Self("invalid_request"), noSpace = Self("no_space"), io = Self("io")
    public static let database = Self("database"), toolMissing = Self("tool_missing"), timeout = Self("timeout")
    public static let storageUnavailable = Self("storage_unavailable"), uploadConflict = Self("upload_conflict")
    public static let checksumMismatch = Self("checksum_mismatch"), tooManyUploads = Self("too_many_uploads")
    public static let cancelled = Self("cancelled")

    /// A code as it was stored (a rendition job's failure, by `description`).
    init(stored name: String) { self.init(name) }
}

extension LibraryError {
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
        self.init(code, error.message, detail: error.detail, cause: error)
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
        self.init(code, error.message, detail: error.detail, cause: error)
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
        self.init(code, error.message, detail: error.detail, cause: error)
    }
}
