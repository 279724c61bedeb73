/// A failure of the database or the blob store: a stable code, a message for people that never
/// carries SQL arguments or paths, and the engine's own words (`detail`) for the operator's log.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String {
            case io
            case noSpace = "no_space"
            case database
            case busy
            case constraint
            case notFound = "not_found"
            case tooLarge = "too_large"
            case corruptRow = "corrupt_row"
            case unavailable
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A read, write, fsync or rename failed.
        public static let io = Code(.io)
        /// The file system is full (ENOSPC, EDQUOT, SQLITE_FULL).
        public static let noSpace = Code(.noSpace)
        /// SQLite reported an error other than those below.
        public static let database = Code(.database)
        /// The database stayed locked past the busy timeout.
        public static let busy = Code(.busy)
        /// A constraint (unique, foreign key, check) refused a write.
        public static let constraint = Code(.constraint)
        /// A blob that should exist does not.
        public static let notFound = Code(.notFound)
        /// A file is over the size limit it was read with.
        public static let tooLarge = Code(.tooLarge)
        /// A row holds what its schema does not allow: a column missing, empty or of another type.
        public static let corruptRow = Code(.corruptRow)
        /// The database or blob store cannot be reached, or did not answer within its deadline:
        /// nothing was done, and the same call may succeed later.
        public static let unavailable = Code(.unavailable)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// What the engine or the system said (SQLite's or PostgreSQL's message, errno's text).
    public let detail: String?

    public init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    public var description: String { "\(code): \(message)" + (detail.map { " (\($0))" } ?? "") }

    /// How a layer over the database names this failure to its callers (the credentials, the
    /// picker service): `storage_unavailable` for an outage, to try again, else `storage_failed`.
    public var asLayerFailure: (code: String, message: String) {
        code == .unavailable
            ? ("storage_unavailable", "The library's database cannot be reached; try again shortly.")
            : ("storage_failed", "The library's database failed: \(message)")
    }
}
