internal import CSQLite
import Foundation

/// The library database: SQLite in WAL mode with full sync, foreign keys and a busy timeout.
///
/// All writes go through one writer connection, one transaction at a time (`write {}`); reads
/// use their own connection (`read {}`) and, thanks to WAL, never wait for a writer. Both block
/// the calling thread, so call them from worker threads, never from the cooperative pool.
public final class Database: Sendable {
    private let writer: Exclusive
    private let reader: Exclusive

    public init(path: String, migrations: [Migration]) throws(StorageError) {
        try Self.makePrivate(path)
        let writer = try Connection(path: path)
        try writer.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA foreign_keys = ON;
            PRAGMA busy_timeout = 10000;
            """)
        try Self.migrate(writer, migrations)
        let reader = try Connection(path: path)
        try reader.execute("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000; PRAGMA query_only = ON;")
        self.writer = Exclusive(writer)
        self.reader = Exclusive(reader)
    }

    /// Runs `body` in one immediate transaction: committed if it returns, rolled back if it throws.
    public func write<T: Sendable>(_ body: (Connection) throws(StorageError) -> T) throws(StorageError) -> T {
        try writer.use { connection throws(StorageError) -> T in
            try Self.transaction(connection, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Runs `body` in one read transaction, a consistent snapshot.
    public func read<T: Sendable>(_ body: (Connection) throws(StorageError) -> T) throws(StorageError) -> T {
        try reader.use { connection throws(StorageError) -> T in
            try Self.transaction(connection, begin: "BEGIN", body)
        }
    }

    /// Moves the write-ahead log into the database file, for a clean stop.
    public func checkpoint() throws(StorageError) {
        try writer.use { connection throws(StorageError) in
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// SQLite's own consistency check; "ok" when sound.
    public func integrityCheck() throws(StorageError) -> String {
        try read { connection throws(StorageError) in
            let rows = try connection.query("PRAGMA integrity_check")
            return rows.compactMap { $0.string("integrity_check") }.joined(separator: "\n")
        }
    }

    /// SQLite makes a new database 0644 and gives the `-wal` and `-shm` beside it the database's
    /// own mode, so the file is made 0600 before SQLite opens it. One an earlier version made is
    /// closed here, with the logs a crash may have left: three calls, at open only.
    private static func makePrivate(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileIO.error("open database") }
        close(descriptor)
        for file in [path, "\(path)-wal", "\(path)-shm"] { FileIO.restrict(file, to: 0o600) }
    }

    private static func transaction<T>(
        _ connection: Connection, begin: String, _ body: (Connection) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        try connection.execute(begin)
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private static func migrate(_ connection: Connection, _ migrations: [Migration]) throws(StorageError) {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        let applied = try connection.query("SELECT name FROM schema_migrations ORDER BY rowid").compactMap { $0.string("name") }
        let known = migrations.map(\.name)
        guard applied.count <= known.count, Array(known.prefix(applied.count)) == applied else {
            throw StorageError(
                .database, "The library was written by a newer or different version of CameraRoll (unknown schema migrations).")
        }
        for migration in migrations.dropFirst(applied.count) {
            _ = try transaction(connection, begin: "BEGIN IMMEDIATE") { connection throws(StorageError) in
                try connection.execute(migration.sql)
                try connection.run(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                    [migration.name])
            }
        }
    }
}

/// A connection that one thread at a time may use. `Synchronization.Mutex` would want the
/// connection `sending` in and out of every transaction body, which a borrowed connection cannot
/// be; the lock gives the same guarantee, and the connection never escapes `use`.
private final class Exclusive: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: Connection

    init(_ connection: Connection) { self.connection = connection }

    func use<T>(_ body: (Connection) throws(StorageError) -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}

extension Database {
    /// The SQLite library's version.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
