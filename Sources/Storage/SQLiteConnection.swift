internal import CSQLite

/// One SQLite connection. It exists only inside `SQLiteDatabase.read {}` / `write {}`, which are its
/// transactions, and is never shared between threads.
public final class SQLiteConnection: SQLConnection {
    private let handle: OpaquePointer
    private var statements: [String: Statement] = [:]

    init(path: String) throws(StorageError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteStatus.error(status, message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        // From the first statement on, even the journal mode's: a connection of a dropped
        // SQLiteDatabase may be closing on its own thread, and the last to close checkpoints the log.
        sqlite3_busy_timeout(handle, 10000)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws(StorageError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        try check(status)
    }

    /// Runs a statement and returns every row.
    @discardableResult
    public func query(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> [Row] {
        let statement = try prepared(sql)
        defer { statement.reset() }
        try statement.bind(arguments.map(\.sqlValue), connection: self)
        var rows: [Row] = []
        var columns: ResultColumns?
        while true {
            let status = statement.step()
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                try check(status)
                break
            }
            let names = columns ?? statement.columns()
            columns = names
            rows.append(statement.row(names))
        }
        return rows
    }

    /// Runs a statement and returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> Int {
        try query(sql, arguments)
        return Int(sqlite3_changes(handle))
    }

    /// Every lock is held already: a database has one writer connection, and its transactions
    /// take turns on its one thread.
    public func lock(_ name: String) {}

    /// Nobody listens: one process keeps an SQLite database.
    public func announce(_ topic: String) {}

    private func prepared(_ sql: String) throws(StorageError) -> Statement {
        if let statement = statements[sql] { return statement }
        var raw: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        try check(status)
        guard let raw else { preconditionFailure("empty SQL statement") }
        let statement = Statement(raw)
        statements[sql] = statement
        return statement
    }

    func check(_ status: Int32) throws(StorageError) {
        guard status != SQLITE_OK && status != SQLITE_DONE && status != SQLITE_ROW else { return }
        precondition(status & 0xFF != SQLITE_MISUSE, "SQLite misuse: \(String(cString: sqlite3_errmsg(handle)))")
        throw SQLiteStatus.error(status, String(cString: sqlite3_errmsg(handle)))
    }
}
