internal import CSQLite

/// SQLite result codes translated to `StorageError`, in one place.
enum SQLiteStatus {
    static func error(_ status: Int32, _ message: String) -> StorageError {
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: StorageError(.busy, "The library database is busy.", detail: message)
        case SQLITE_FULL: StorageError(.noSpace, "The disk is full.", detail: message)
        case SQLITE_CONSTRAINT: StorageError(.constraint, "A database constraint refused the change.", detail: message)
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM:
            StorageError(.io, "The library database cannot be read or written.", detail: message)
        default: StorageError(.database, "The library database failed.", detail: message)
        }
    }
}
