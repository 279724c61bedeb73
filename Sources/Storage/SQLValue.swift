/// A value bound to or read from SQLite.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Types that bind to a statement parameter.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One result row, by column name.
public struct Row: Sendable {
    let columns: [String: SQLValue]

    /// A row as an engine read it.
    public init(columns: [String: SQLValue]) {
        self.columns = columns
    }

    public subscript(_ name: String) -> SQLValue { columns[name] ?? .null }

    /// The columns the row has, for copying it whole.
    public var columnNames: [String] { columns.keys.sorted() }

    // MARK: Strict reading
    //
    // What a row of ours holds is decided by our schema, so a column that is missing, NULL where
    // the schema says NOT NULL, or of another type is damage (or a bug), said as such: never a
    // default that would serve a photo 0 pixels wide.

    /// The column's text; an error when it is missing, NULL or not text.
    public func text(_ name: String) throws(StorageError) -> String {
        guard let value = try optionalText(name) else { throw Self.damaged(name, "is empty") }
        return value
    }

    /// The column's text, nil for NULL; an error when it is missing or of another type.
    public func optionalText(_ name: String) throws(StorageError) -> String? {
        switch try value(name) {
        case .text(let value): return value
        case .null: return nil
        default: throw Self.damaged(name, "is not text")
        }
    }

    /// The column's integer; an error when it is missing, NULL, not an integer or past Int.
    public func integer(_ name: String) throws(StorageError) -> Int {
        guard let value = try optionalInteger(name) else { throw Self.damaged(name, "is empty") }
        return value
    }

    public func optionalInteger(_ name: String) throws(StorageError) -> Int? {
        switch try value(name) {
        case .integer(let value):
            guard let exact = Int(exactly: value) else { throw Self.damaged(name, "is out of range") }
            return exact
        case .null: return nil
        default: throw Self.damaged(name, "is not an integer")
        }
    }

    /// The column's number; an error when it is missing, NULL or not a number.
    public func real(_ name: String) throws(StorageError) -> Double {
        guard let value = try optionalReal(name) else { throw Self.damaged(name, "is empty") }
        return value
    }

    /// The column's number (an integer is a number too), nil for NULL.
    public func optionalReal(_ name: String) throws(StorageError) -> Double? {
        switch try value(name) {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .null: return nil
        default: throw Self.damaged(name, "is not a number")
        }
    }

    /// A 0-or-1 column; an error for anything else.
    public func flag(_ name: String) throws(StorageError) -> Bool {
        guard let value = try optionalFlag(name) else { throw Self.damaged(name, "is empty") }
        return value
    }

    public func optionalFlag(_ name: String) throws(StorageError) -> Bool? {
        switch try optionalInteger(name) {
        case 0: return false
        case 1: return true
        case nil: return nil
        default: throw Self.damaged(name, "is neither 0 nor 1")
        }
    }

    private func value(_ name: String) throws(StorageError) -> SQLValue {
        guard let value = columns[name] else { throw Self.damaged(name, "is missing") }
        return value
    }

    static func damaged(_ column: String, _ problem: String) -> StorageError {
        StorageError(.corruptRow, "A row of the library is damaged: its column \(column) \(problem).")
    }
}
