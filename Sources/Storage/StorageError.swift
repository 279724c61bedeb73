public import Failures

/// A failure of the database or the blob store: its message never carries SQL arguments or
/// paths; the engine's own words (`detail`) are for the operator's log.
public typealias StorageError = Failure<StorageFailures>

/// Its codes:
/// - `io`: a read, write, fsync or rename failed.
/// - `noSpace`: the file system is full (ENOSPC, EDQUOT, SQLITE_FULL).
/// - `database`: sQLite reported an error other than those below.
/// - `busy`: the database stayed locked past the busy timeout.
/// - `constraint`: a constraint (unique, foreign key, check) refused a write.
/// - `notFound`: a blob that should exist does not.
/// - `tooLarge`: a file is over the size limit it was read with.
/// - `corruptRow`: a row holds what its schema does not allow: a column missing, empty or of
///   another type.
/// - `unavailable`: the database or blob store cannot be reached, or did not answer within its
///   deadline: nothing was done, and the same call may succeed later.
public enum StorageFailures: FailureDomain {}

extension StorageError.Code {
    public static let io = Self("io"), noSpace = Self("no_space"), database = Self("database"), busy = Self("busy")
    public static let constraint = Self("constraint"), notFound = Self("not_found"), tooLarge = Self("too_large")
    public static let corruptRow = Self("corrupt_row"), unavailable = Self("unavailable")
}

extension StorageError {
    /// How a layer over the database words this failure to its callers (the credentials, the
    /// picker's sessions): an outage, to try again, or a failure, and the message for either.
    public var asLayerFailure: (outage: Bool, message: String) {
        code == .unavailable
            ? (true, "The library's database cannot be reached; try again shortly.")
            : (false, "The library's database failed: \(message)")
    }
}
