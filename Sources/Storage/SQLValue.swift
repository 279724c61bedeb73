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

/// The names of a result's columns, in order, found once for all its rows: a row is its
/// values in this order, so reading a page of a listing builds no dictionary per row.
public final class ResultColumns: Sendable {
    public let names: [String]
    let positions: [String: Int]

    public init(_ names: [String]) {
        self.names = names
        // A name said twice (a join's two `id`s) is the last, as when a row was a dictionary
        // filled in column order.
        positions = Dictionary(names.enumerated().map { ($1, $0) }) { _, last in last }
    }

    /// Where the column `name` is in a row, nil when the result has none.
    public func position(_ name: String) -> Int? { positions[name] }
}

/// One result row, by column name.
public struct Row: Sendable {
    public let columns: ResultColumns
    let values: [SQLValue]

    /// A row as an engine read it: `values` in the order of `columns`.
    public init(_ columns: ResultColumns, values: [SQLValue]) {
        precondition(columns.names.count == values.count, "a row has a value for each column")
        self.columns = columns
        self.values = values
    }

    /// A row of these columns, in no particular order.
    public init(columns: [String: SQLValue]) {
        self.init(ResultColumns(Array(columns.keys)), values: Array(columns.values))
    }

    public subscript(_ name: String) -> SQLValue { columns.position(name).map { values[$0] } ?? .null }

    /// The columns the row has, for copying it whole: each name once (a name said twice is its
    /// last column, as the subscript reads it).
    public var columnNames: [String] { columns.positions.keys.sorted() }

    // MARK: Strict reading
    //
    // What a row of ours holds is decided by our schema, so a column that is missing, NULL where
    // the schema says NOT NULL, or of another type is damage (or a bug), said as such: never a
    // default that would serve a photo 0 pixels wide.

    /// The column's text; an error when it is missing, NULL or not text.
    public func text(_ name: String) throws(StorageError) -> String { try cell(name).text() }

    /// The column's text, nil for NULL; an error when it is missing or of another type.
    public func optionalText(_ name: String) throws(StorageError) -> String? { try cell(name).optionalText() }

    /// The column's integer; an error when it is missing, NULL, not an integer or past Int.
    public func integer(_ name: String) throws(StorageError) -> Int { try cell(name).integer() }

    public func optionalInteger(_ name: String) throws(StorageError) -> Int? { try cell(name).optionalInteger() }

    /// The column's number; an error when it is missing, NULL or not a number.
    public func real(_ name: String) throws(StorageError) -> Double { try cell(name).real() }

    /// The column's number (an integer is a number too), nil for NULL.
    public func optionalReal(_ name: String) throws(StorageError) -> Double? { try cell(name).optionalReal() }

    /// A 0-or-1 column; an error for anything else.
    public func flag(_ name: String) throws(StorageError) -> Bool { try cell(name).flag() }

    public func optionalFlag(_ name: String) throws(StorageError) -> Bool? { try cell(name).optionalFlag() }

    /// The column `name`; an error when the row has none.
    func cell(_ name: String) throws(StorageError) -> Cell {
        guard let position = columns.position(name) else { throw Self.damaged(name, "is missing") }
        return Cell(value: values[position], name: name)
    }

    /// The value at `position`, which a decoder found for the column `name` once for all rows.
    func cell(at position: Int, _ name: String) -> Cell { Cell(value: values[position], name: name) }

    static func damaged(_ column: String, _ problem: String) -> StorageError {
        StorageError(.corruptRow, "A row of the library is damaged: its column \(column) \(problem).")
    }
}

/// One column's value read strictly, its name kept for the message about a damaged one.
struct Cell {
    let value: SQLValue
    let name: String

    var isNull: Bool { value == .null }

    func text() throws(StorageError) -> String {
        guard let text = try optionalText() else { throw Row.damaged(name, "is empty") }
        return text
    }

    func optionalText() throws(StorageError) -> String? {
        switch value {
        case .text(let value): return value
        case .null: return nil
        default: throw Row.damaged(name, "is not text")
        }
    }

    func integer() throws(StorageError) -> Int {
        guard let integer = try optionalInteger() else { throw Row.damaged(name, "is empty") }
        return integer
    }

    func optionalInteger() throws(StorageError) -> Int? {
        switch value {
        case .integer(let value):
            guard let exact = Int(exactly: value) else { throw Row.damaged(name, "is out of range") }
            return exact
        case .null: return nil
        default: throw Row.damaged(name, "is not an integer")
        }
    }

    func real() throws(StorageError) -> Double {
        guard let real = try optionalReal() else { throw Row.damaged(name, "is empty") }
        return real
    }

    func optionalReal() throws(StorageError) -> Double? {
        switch value {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .null: return nil
        default: throw Row.damaged(name, "is not a number")
        }
    }

    func flag() throws(StorageError) -> Bool {
        guard let flag = try optionalFlag() else { throw Row.damaged(name, "is empty") }
        return flag
    }

    func optionalFlag() throws(StorageError) -> Bool? {
        switch try optionalInteger() {
        case 0: return false
        case 1: return true
        case nil: return nil
        default: throw Row.damaged(name, "is neither 0 nor 1")
        }
    }
}
