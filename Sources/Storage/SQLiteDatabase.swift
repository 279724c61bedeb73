internal import CSQLite
import Executors
import Foundation

/// The library database: SQLite in WAL mode with full sync, foreign keys and a busy timeout,
/// in GRDB's shape. All writes go through one writer connection, one transaction at a time
/// (`write {}`); reads go to a few reader connections (`read {}`) and, thanks to WAL, never wait
/// for the writer. Each connection lives on a thread of its own (a `BlockingExecutor` with that
/// connection as its context), so SQLite never blocks the cooperative pool or a server thread,
/// and a caller awaits without holding a thread.
public final class SQLiteDatabase: SQLDatabase {
    /// A connection, or why it could not be opened (tried again by the next job).
    typealias Lane = Result<SQLiteConnection, StorageError>
    private let writer: BlockingExecutor<Lane>
    private let readers: BlockingExecutor<Lane>

    /// Opens the file and runs the migrations it lacks; the connections themselves are opened
    /// by their threads, as they are first needed.
    public init(path: String, migrations: [Migration], readers readerCount: Int = 3) throws(StorageError) {
        try Self.makePrivate(path)
        let connection = try Self.connect(path, writer: true)
        try Self.migrate(connection, migrations)
        try Self.analyseStaleTables(connection)
        writer = BlockingExecutor(name: "db-writer", threads: 1) { _ in
            Result { () throws(StorageError) in try Self.connect(path, writer: true) }
        }
        readers = BlockingExecutor(name: "db-reader", threads: readerCount) { _ in
            Result { () throws(StorageError) in try Self.connect(path, writer: false) }
        }
        self.path = path
    }

    private let path: String

    private static func connect(_ path: String, writer: Bool) throws(StorageError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.execute(
            writer
                ? "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;"
                : "PRAGMA foreign_keys = ON; PRAGMA query_only = ON;")
        return connection
    }

    /// The lane's connection, opened again if it could not be before.
    private static func connection(_ lane: inout Lane, _ path: String, writer: Bool) throws(StorageError) -> SQLiteConnection {
        if case .failure = lane { lane = Result { () throws(StorageError) in try connect(path, writer: writer) } }
        return try lane.get()
    }

    /// Runs `body` in one immediate transaction, on the writer's thread: committed if it
    /// returns, rolled back if it throws. Writers take turns, so work that must not interleave
    /// with another writer's (a blob's commit and its row) belongs in one body.
    /// A cached commit is one with `synchronous = NORMAL`: in WAL mode it is written to the log
    /// without an fsync, which the next full commit (or checkpoint) makes for it too.
    public func write<T: Sendable>(_ commit: Commit, _ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T)
        async throws(StorageError) -> T
    {
        try await writer.run { [path] (lane: inout Lane) throws(StorageError) -> T in
            let connection = try Self.connection(&lane, path, writer: true)
            guard case .cached = commit else { return try connection.transaction(begin: "BEGIN IMMEDIATE", body) }
            try connection.execute("PRAGMA synchronous = NORMAL")
            let result = Result { () throws(StorageError) in try connection.transaction(begin: "BEGIN IMMEDIATE", body) }
            do throws(StorageError) {
                try connection.execute("PRAGMA synchronous = FULL")
            } catch {
                // A connection left without full sync would make the next durable commits cached.
                lane = .failure(error)
            }
            return try result.get()
        }
    }

    /// Runs `body` in one read transaction, a consistent snapshot, on a reader's thread.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T) async throws(StorageError) -> T
    {
        try await readers.run { [path] (lane: inout Lane) throws(StorageError) -> T in
            try Self.connection(&lane, path, writer: false).transaction(begin: "BEGIN", body)
        }
    }

    /// None: one process keeps the database, so nobody else announces anything.
    public func announcements() -> AsyncStream<Announcement>? { nil }

    public var dialect: SQLDialect { .sqlite }

    /// Brings the statistics up to date, then moves the write-ahead log into the database file.
    public func flush() async throws(StorageError) {
        try await writer.run { [path] (lane: inout Lane) throws(StorageError) in
            let connection = try Self.connection(&lane, path, writer: true)
            try Self.optimize(connection)
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    public func optimize() async throws(StorageError) {
        try await writer.run { [path] (lane: inout Lane) throws(StorageError) in
            try Self.optimize(try Self.connection(&lane, path, writer: true))
        }
    }

    /// `PRAGMA optimize` as SQLite advises: it analyses the tables whose statistics are missing
    /// or stale. Whole: from a sample (`analysis_limit`) SQLite took a view's partial index of a
    /// library of a million for one of five million, bigger than the table, and read every
    /// listing from the table and a sort (a second a page); the whole ANALYZE of that library
    /// takes a quarter of a second.
    private static func optimize(_ connection: SQLiteConnection) throws(StorageError) {
        try analyseStaleTables(connection)
        try connection.execute("PRAGMA optimize")
    }

    /// Statistics gathered when a table held a tenth of its rows or ten times them (rows another
    /// process or a copy wrote since) send a listing to a scan for each of its rows. SQLite
    /// 3.40's `PRAGMA optimize` looks only at the tables its own connection has planned for, and
    /// a library generated with a million rows behind a one-row analysis took 8 s a page. Such
    /// tables are analysed again at open and before each `PRAGMA optimize`: a count of each
    /// table analysed before (40 ms at a million rows), an ANALYZE only where it is off.
    private static func analyseStaleTables(_ connection: SQLiteConnection) throws(StorageError) {
        guard try !connection.query("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").isEmpty else { return }
        // Each index's statistics start with the rows it holds: the whole table's for all but partial ones.
        let analysed = try connection.query(
            "SELECT tbl, max(CAST(stat AS INTEGER)) AS counted FROM sqlite_stat1 WHERE tbl NOT LIKE 'sqlite_%' GROUP BY tbl")
        for row in analysed {
            let (table, counted) = (try row.text("tbl"), try row.integer("counted"))
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let rows = try connection.query("SELECT count(*) AS rows FROM \(quoted)").first?.integer("rows") ?? 0
            if rows > counted * 10 || rows * 10 < counted { try connection.execute("ANALYZE \(quoted)") }
        }
    }

    /// SQLite's own consistency check, which says "ok" alone when sound.
    public func integrityProblems() async throws(StorageError) -> [String] {
        try await read { connection throws(StorageError) in
            let said = try connection.query("PRAGMA integrity_check").map { row throws(StorageError) in try row.text("integrity_check") }
            return said == ["ok"] ? [] : said
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

    private static func migrate(_ connection: SQLiteConnection, _ migrations: [Migration]) throws(StorageError) {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        let applied = try connection.query("SELECT name FROM schema_migrations ORDER BY rowid").map { row throws(StorageError) in
            try row.text("name")
        }
        for migration in try migrations.unapplied(after: applied) {
            // The pragma does nothing inside a transaction.
            if migration.rebuildsTables { try connection.execute("PRAGMA foreign_keys = OFF") }
            defer { if migration.rebuildsTables { try? connection.execute("PRAGMA foreign_keys = ON") } }
            _ = try connection.transaction(begin: "BEGIN IMMEDIATE") { connection throws(StorageError) in
                try connection.execute(migration.sql)
                if migration.rebuildsTables {
                    let broken = try connection.query("PRAGMA foreign_key_check")
                    guard broken.isEmpty else {
                        throw StorageError(
                            .database,
                            "The library's upgrade \(migration.name) would leave \(broken.count) references to nothing; nothing was changed."
                        )
                    }
                }
                try connection.run(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                    [migration.name])
            }
        }
    }
}

extension SQLiteDatabase {
    /// The SQLite library's version.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
