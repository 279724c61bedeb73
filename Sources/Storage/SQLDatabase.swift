/// A SQL database as the library uses it, whatever the engine: transactions run on threads of
/// the database's own (never the caller's), in the shape GRDB gave SQLite — one writer at a
/// time, readers on consistent snapshots that never wait for it.
///
/// The library writes its statements once, in the SQL both engines speak (`?` parameters,
/// `INSERT … ON CONFLICT DO NOTHING`), and each engine keeps its own migrations.
public protocol SQLDatabase: Sendable {
    /// Runs `body` in one write transaction: committed if it returns, rolled back if it throws.
    func write<T: Sendable>(_ commit: Commit, _ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T)
        async throws(StorageError) -> T

    /// Runs `body` in one read-only transaction, a consistent snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T) async throws(StorageError) -> T

    /// What the engine's own check finds wrong in its files; empty when sound.
    func integrityProblems() async throws(StorageError) -> [String]

    /// Leaves everything committed in the database's main files, for a clean stop, with the
    /// planner's statistics brought up to date as `optimize()` does.
    func flush() async throws(StorageError)

    /// Brings the planner's statistics up to date where the engine leaves that to its user:
    /// SQLite advises `PRAGMA optimize` at close and every few hours; PostgreSQL's autovacuum
    /// analyses tables itself.
    func optimize() async throws(StorageError)

    /// Which engine's SQL the database speaks, for the few statements spelled differently.
    var dialect: SQLDialect { get }

    /// What the servers sharing this database announce (`SQLConnection.announce`) as their
    /// transactions commit, this server's own included, from now until the stream is dropped;
    /// nil for an engine that one process keeps (SQLite), where nobody else writes.
    func announcements() -> AsyncStream<Announcement>?
}

extension SQLDatabase {
    /// A write whose commit is durable.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T) async throws(StorageError)
        -> T
    {
        try await write(.durable, body)
    }
}

/// The engines the library runs on.
public enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL
}

/// What a write's commit waits for.
public enum Commit: Sendable {
    /// The disk: the transaction survives a crash of the machine.
    case durable
    /// The operating system: the transaction survives a crash of the process; one of the machine
    /// may take it back (whole, and with any later ones, never an earlier one without it). For
    /// rows that describe what is itself only in the machine's cache, where waiting for the disk
    /// would buy nothing.
    case cached
}

/// What a server told the others sharing its database, or that it may have missed some.
public enum Announcement: Sendable, Equatable {
    /// A topic was announced (what changed, named by whoever changed it).
    case topic(String)
    /// The listening connection was made (again): whatever was announced while there was none
    /// is lost, so what the listener keeps must be read again.
    case resumed
}

/// A connection inside one transaction of `SQLDatabase.read {}` or `write {}`, and only there.
public protocol SQLConnection {
    /// Runs a statement and returns every row.
    @discardableResult
    func query(_ sql: String, _ arguments: [any SQLBindable]) throws(StorageError) -> [Row]

    /// Runs a statement and returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [any SQLBindable]) throws(StorageError) -> Int

    /// Runs statements without arguments (a migration's several at once, BEGIN and COMMIT).
    func execute(_ sql: String) throws(StorageError)

    /// Holds the lock named `name` until the transaction ends: writers that take the same
    /// name take turns, whichever server they run on (a blob's commit and its row, a row's
    /// delete and its blob).
    func lock(_ name: String) throws(StorageError)

    /// Tells every server listening (`SQLDatabase.announcements`) about `topic` when, and only
    /// if, this transaction commits.
    func announce(_ topic: String) throws(StorageError)
}

extension SQLConnection {
    /// `body` between `begin` and COMMIT, rolled back if it throws: how each engine runs the
    /// transactions of `SQLDatabase.read {}` and `write {}` on its connection's thread.
    public func transaction<T>(begin: String, _ body: (Self) throws(StorageError) -> T) throws(StorageError) -> T {
        try execute(begin)
        do {
            let result = try body(self)
            try execute("COMMIT")
            return result
        } catch {
            // A connection that broke has no transaction left to roll back; the attempt fails fast.
            try? execute("ROLLBACK")
            throw error
        }
    }

    @discardableResult
    public func query(_ sql: String) throws(StorageError) -> [Row] { try query(sql, []) }

    @discardableResult
    public func run(_ sql: String) throws(StorageError) -> Int { try run(sql, []) }

    /// The first column of the first row (NULL when there is none), for one-value queries.
    public func scalar(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> SQLValue {
        try query(sql, arguments).first?.values.first ?? .null
    }
}
