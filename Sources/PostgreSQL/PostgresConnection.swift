internal import CPostgres
import Foundation
public import Storage

/// One libpq connection, confined to the thread of the executor that made it. Statements are
/// sent with their arguments apart (`PQexecParams`), never spliced into the SQL, and every value
/// travels as text: libpq's text format is what PostgreSQL parses for any column type, and the
/// result's column types (OIDs) decide how a value reads back.
public final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    /// Statements with `?` turned into `$n`, by their text.
    private var translated: [String: String] = [:]

    /// Connects to `url` (a `postgresql://` URI or libpq's `key=value` string). A server that does
    /// not answer within `connectTimeout` seconds is `unavailable`; so is one that stops answering
    /// later (TCP keepalives notice it in seconds), and a statement past `statementTimeout`.
    init(url: String, connectTimeout: Int, statementTimeout: Duration) throws(StorageError) {
        let settings: [(String, String)] = [
            ("dbname", url), ("connect_timeout", String(connectTimeout)), ("client_encoding", "UTF8"),
            ("application_name", "cameraroll"), ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
            ("keepalives_count", "3"),
        ]
        let handle = Self.withCStrings(settings.map(\.0)) { keywords in
            Self.withCStrings(settings.map(\.1)) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else { throw StorageError(.unavailable, "The database cannot be reached.", detail: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let said = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw StorageError(.unavailable, "The database cannot be reached.", detail: Self.oneLine(said))
        }
        self.handle = handle
        let milliseconds = statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000
        // Moments read back in UTC, whatever zone the server or the URL set: `ColumnType` writes
        // them as the library does, and a day is a UTC day wherever the server is.
        try run(
            "SELECT set_config('statement_timeout', ?, false), set_config('TimeZone', 'UTC', false), set_config('DateStyle', 'ISO', false)",
            ["\(milliseconds)"])
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection still works as far as libpq knows (a failed one is dropped and made again).
    var isUsable: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether the connection still works, having read what the server sent while it was idle:
    /// a server that restarted said so (a FATAL notice) and closed it. libpq sees the close only
    /// on a read after the one that took the notice, so it reads while the socket has more (a
    /// few reads at most; none blocks), a system call or two, not a round trip.
    var isAlive: Bool {
        for _ in 0..<4 where isUsable && Self.isReadable(PQsocket(handle)) {
            guard PQconsumeInput(handle) == 1 else { break }
        }
        return isUsable
    }

    /// Whether a read of the socket would return at once: data, or its end.
    private static func isReadable(_ socket: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return socket >= 0 && poll(&descriptor, 1, 0) == 1
    }

    @discardableResult
    public func query(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> [Row] {
        let result = try execute(sql, arguments)
        defer { PQclear(result) }
        return try Self.rows(of: result)
    }

    @discardableResult
    public func run(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> Int {
        let result = try execute(sql, arguments)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// A transaction-scoped advisory lock on the name's 64-bit hash: writers on every server
    /// that lock the same name take turns, and the lock goes with the transaction.
    public func lock(_ name: String) throws(StorageError) {
        try run("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [name])
    }

    /// NOTIFY on the one channel every CameraRoll server listens to; PostgreSQL delivers it at commit.
    public func announce(_ topic: String) throws(StorageError) {
        try run("SELECT pg_notify(?, ?)", [Self.channel, topic])
    }

    static let channel = "cameraroll"

    /// Starts listening on `channel`, outside any transaction.
    func listen() throws(StorageError) {
        try execute("LISTEN \(Self.channel)")
    }

    /// Waits up to `milliseconds` for notifications and returns their payloads (none when the
    /// time passed); throws `unavailable` when the connection broke.
    func notifications(waitingUpTo milliseconds: Int32) throws(StorageError) -> [String] {
        var ready = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard ready.fd >= 0 else { throw failure(nil) }
        if poll(&ready, 1, milliseconds) > 0 {
            guard PQconsumeInput(handle) == 1 else { throw failure(nil) }
        }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        guard isUsable else { throw failure(nil) }
        return payloads
    }

    public func execute(_ sql: String) throws(StorageError) {
        guard let result = PQexec(handle, sql) else { throw failure(nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result) }
    }

    private func execute(_ sql: String, _ arguments: [any SQLBindable]) throws(StorageError) -> OpaquePointer {
        let text = translated[sql] ?? Placeholders.numbered(sql)
        translated[sql] = text
        let values = arguments.map { Self.text(of: $0.sqlValue) }
        let result = Self.withOptionalCStrings(values) { pointers in
            PQexecParams(handle, text, Int32(values.count), nil, pointers, nil, nil, 0)
        }
        guard let result else { throw failure(nil) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            defer { PQclear(result) }
            throw failure(result)
        }
        return result
    }

    /// A value as PostgreSQL's text input takes it; nil is SQL NULL.
    private static func text(of value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): "\(number)"
        case .text(let text): text
        case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    private static func rows(of result: OpaquePointer) throws(StorageError) -> [Row] {
        let fields = 0..<PQnfields(result)
        let columns = ResultColumns(fields.map { String(cString: PQfname(result, $0)) })
        let types = fields.map { PQftype(result, $0) }
        var rows: [Row] = []
        rows.reserveCapacity(Int(PQntuples(result)))
        for row in 0..<PQntuples(result) {
            var values: [SQLValue] = []
            values.reserveCapacity(types.count)
            for (index, type) in types.enumerated() {
                let field = Int32(index)
                if PQgetisnull(result, row, field) == 1 {
                    values.append(.null)
                } else {
                    values.append(
                        try ColumnType.value(String(cString: PQgetvalue(result, row, field)), type: type, columns.names[index]))
                }
            }
            rows.append(Row(columns, values: values))
        }
        return rows
    }

    /// What went wrong, by SQLSTATE class: a connection or a server going away and a statement
    /// past its deadline are outages, not the library's fault.
    private func failure(_ result: OpaquePointer?) -> StorageError {
        let said = Self.oneLine(String(cString: result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(handle)))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        return SQLState.error(state, connectionLost: !isUsable, detail: said)
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        withOptionalCStrings(strings) { pointers in body(pointers + [nil]) }
    }

    private static func withOptionalCStrings<T>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
