import Executors
import Foundation
public import Storage

/// The library's database on a PostgreSQL server, which several CameraRoll servers share.
/// Connections live on threads of their own, as SQLite's do: a few writers (PostgreSQL takes
/// concurrent writers; `SQLConnection.lock` orders those that touch the same blob, on every
/// server) and a few readers, each transaction a consistent snapshot. A connection that breaks
/// (the server restarted, the network dropped) is made again by the next transaction on its
/// thread; until it can be, calls fail at once with `unavailable`.
public final class PostgresDatabase: SQLDatabase {
    /// A connection, or why it could not be made (tried again by the next job).
    typealias Lane = Result<PostgresConnection, StorageError>
    private let writers: BlockingExecutor<Lane>
    private let readers: BlockingExecutor<Lane>
    private let connect: @Sendable () throws(StorageError) -> PostgresConnection
    private let listener: PostgresListener

    public struct Options: Sendable {
        public var writers = 4
        public var readers = 4
        /// Seconds to wait for a connection.
        public var connectTimeout = 5
        /// The longest any statement may run; past it the call is `unavailable`.
        public var statementTimeout: Duration = .seconds(30)
        public init() {}
    }

    /// Connects to `url` and runs the migrations the database lacks: one server at a time, under
    /// an advisory lock, so servers started together never apply one twice.
    public init(url: String, migrations: [Migration], options: Options = Options()) async throws(StorageError) {
        let connect: @Sendable () throws(StorageError) -> PostgresConnection = {
            () throws(StorageError) in
            try PostgresConnection(url: url, connectTimeout: options.connectTimeout, statementTimeout: options.statementTimeout)
        }
        self.connect = connect
        listener = PostgresListener(connect: connect)
        writers = BlockingExecutor(name: "pg-writer", threads: options.writers) { _ in Result(catching: connect) }
        readers = BlockingExecutor(name: "pg-reader", threads: options.readers) { _ in Result(catching: connect) }
        try await writers.run { [connect] (lane: inout Lane) throws(StorageError) in
            try Self.migrate(try Self.connection(&lane, connect), migrations)
        }
    }

    /// A cached commit turns `synchronous_commit` off for its transaction alone: the server
    /// answers before its WAL is flushed, which it does within three times `wal_writer_delay`.
    public func write<T: Sendable>(_ commit: Commit, _ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T)
        async throws(StorageError) -> T
    {
        try await writers.run { [connect] (lane: inout Lane) throws(StorageError) -> T in
            let begin = if case .cached = commit { "BEGIN; SET LOCAL synchronous_commit = off" } else { "BEGIN" }
            return try Self.connection(&lane, connect).transaction(begin: begin, body)
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T) async throws(StorageError) -> T
    {
        try await readers.run { [connect] (lane: inout Lane) throws(StorageError) -> T in
            try Self.connection(&lane, connect).transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
        }
    }

    /// PostgreSQL checks its own pages as it reads them (when the cluster has data checksums);
    /// what it found is counted per database.
    public func integrityProblems() async throws(StorageError) -> [String] {
        try await read { connection throws(StorageError) in
            let rows = try connection.query("SELECT checksum_failures FROM pg_stat_database WHERE datname = current_database()")
            guard let failures = try rows.first?.optionalInteger("checksum_failures"), failures > 0 else { return [] }
            return ["\(failures) pages failed their checksum"]
        }
    }

    /// A stream fed by the database's one LISTEN connection, until the stream is dropped.
    public func announcements() -> AsyncStream<Announcement>? { listener.subscribe() }

    /// Nothing to do: a commit PostgreSQL acknowledged is in its write-ahead log, on its disk.
    public func flush() async throws(StorageError) {}

    /// Nothing to do: autovacuum analyses the tables as they change.
    public func optimize() async throws(StorageError) {}

    public var dialect: SQLDialect { .postgreSQL }

    /// The lane's connection: made again when it broke or could not be made before.
    private static func connection(
        _ lane: inout Lane, _ connect: @Sendable () throws(StorageError) -> PostgresConnection
    ) throws(StorageError) -> PostgresConnection {
        // One the server closed while it was idle (a restart) is made again before it fails a
        // transaction that has not begun.
        if case .success(let connection) = lane, !connection.isAlive { lane = .failure(StorageError(.unavailable, "")) }
        if case .failure = lane { lane = Result(catching: connect) }
        return try lane.get()
    }

    private static func migrate(_ connection: PostgresConnection, _ migrations: [Migration]) throws(StorageError) {
        _ = try connection.transaction(begin: "BEGIN") { connection throws(StorageError) in
            // One server migrates at a time; the others wait here, then find nothing to do.
            try connection.lock("cameraroll schema migrations")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT NOT NULL)"
            )
            let applied = try connection.query("SELECT name FROM schema_migrations ORDER BY position").map { row throws(StorageError) in
                try row.text("name")
            }
            let unapplied = try migrations.unapplied(after: applied)
            for (position, migration) in zip(unapplied.indices, unapplied) {
                try connection.execute(migration.sql)
                try connection.run(
                    "INSERT INTO schema_migrations (position, name, applied_at) VALUES (?, ?, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
                    [position, migration.name])
            }
        }
    }
}
