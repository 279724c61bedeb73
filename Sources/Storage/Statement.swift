internal import CSQLite

/// Owns one prepared statement.
final class Statement {
    private let handle: OpaquePointer
    /// SQLite copies bound text and blobs when given this destructor value.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }

    func bind(_ values: [SQLValue], connection: SQLiteConnection) throws(StorageError) {
        precondition(values.count == Int(sqlite3_bind_parameter_count(handle)), "wrong number of SQL arguments")
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(handle, index)
            case .integer(let int): status = sqlite3_bind_int64(handle, index, int)
            case .real(let double): status = sqlite3_bind_double(handle, index, double)
            case .text(let text): status = sqlite3_bind_text(handle, index, text, -1, Self.transient)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            try connection.check(status)
        }
    }

    func step() -> Int32 { sqlite3_step(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The names of the columns a step's rows have, read once for all of them: a statement
    /// `SELECT *` prepared again after a migration may have others since it was last run.
    func columns() -> ResultColumns {
        ResultColumns((0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) })
    }

    func row(_ columns: ResultColumns) -> Row {
        let values = (0..<Int32(columns.names.count)).map { index -> SQLValue in
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
            case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(handle, index)))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, index))
                let bytes = sqlite3_column_blob(handle, index).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) }
                return .blob(bytes ?? [])
            default: return .null
            }
        }
        return Row(columns, values: values)
    }
}
