import Foundation

/// A value kept as one row of a table, as GRDB's records are: each of its coding keys is a
/// column, so the row is spelled once, by the type, for reading (`Row.decode`) and for writing
/// (`SQLConnection.insert`).
///
/// A column is named by the snake_case of its key (`blobHash` in `blob_hash`, `hasGPS` in
/// `has_gps`) unless `columnNames` names it otherwise. A nested value that is `RowColumns` keeps
/// its fields in columns of the same row; one that is `JSONColumn` is JSON text in its column;
/// any other (a `RawRepresentable` enum) is the one value of its column.
public protocol RowRecord: Codable {
    /// Columns whose name is not the snake_case of their key: key to column.
    static var columnNames: [String: String] { get }
    /// Columns a query computes, which the table does not have: an insert leaves them out.
    static var computedColumns: Set<String> { get }
}

extension RowRecord {
    public static var columnNames: [String: String] { [:] }
    public static var computedColumns: Set<String> { [] }
}

/// A nested value whose fields are columns of its record's row.
public protocol RowColumns: Codable {}

/// A nested value kept as JSON text in one column.
public protocol JSONColumn: Codable {
    /// What the column holds, for the message about a damaged one ("an edit").
    static var columnDescription: String { get }
}

/// How a record's keys become column names, and where those columns are in a result: each
/// key's found once per naming, which a batch of rows shares (a page of a listing asks the same
/// thirty keys of every row, all of one result).
final class ColumnNaming {
    private let overrides: [String: String]
    private var known: [String: String] = [:]
    /// Each key's column and its position in `locatedIn`, the result the rows come from.
    private var located: [String: (column: String, position: Int?)] = [:]
    private var locatedIn: ResultColumns?
    /// The naming of a nested `RowColumns` value's keys, which the record's overrides do not name.
    private(set) lazy var nested = ColumnNaming(overrides: [:])

    init(overrides: [String: String]) {
        self.overrides = overrides
    }

    func column(_ key: any CodingKey) -> String {
        if let column = known[key.stringValue] { return column }
        let column = overrides[key.stringValue] ?? Self.snakeCase(key.stringValue)
        known[key.stringValue] = column
        return column
    }

    /// The column `key` names in a row of `columns`; an error when the result has no such column.
    func cell(_ key: any CodingKey, of row: Row) throws(StorageError) -> Cell {
        if row.columns !== locatedIn {
            located.removeAll(keepingCapacity: true)
            locatedIn = row.columns
        }
        let found: (column: String, position: Int?)
        if let known = located[key.stringValue] {
            found = known
        } else {
            let column = column(key)
            found = (column, row.columns.position(column))
            located[key.stringValue] = found
        }
        guard let position = found.position else { throw Row.damaged(found.column, "is missing") }
        return row.cell(at: position, found.column)
    }

    /// `captureFrameRate` as `capture_frame_rate`; a run of capitals is one word (`hasGPS` as
    /// `has_gps`). Keys are Swift identifiers of ASCII letters and digits, read as bytes.
    static func snakeCase(_ key: String) -> String {
        let bytes = Array(key.utf8)
        let isCapital = { (byte: UInt8) in (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
        let isSmall = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        var column: [UInt8] = []
        column.reserveCapacity(bytes.count + 4)
        for (index, byte) in bytes.enumerated() {
            if isCapital(byte), index > 0,
                !isCapital(bytes[index - 1]) || (index + 1 < bytes.count && isSmall(bytes[index + 1]))
            {
                column.append(UInt8(ascii: "_"))
            }
            column.append(isCapital(byte) ? byte + 32 : byte)
        }
        return String(decoding: column, as: UTF8.self)
    }
}

extension Row {
    /// The record this row holds, read strictly: a column that is missing, NULL where the type
    /// says it is not optional, of another type, or naming a value the type does not know is
    /// damage (`corruptRow`), never a default.
    public func decode<T: RowRecord>(_ type: T.Type) throws(StorageError) -> T {
        try decode(type, naming: ColumnNaming(overrides: T.columnNames))
    }

    fileprivate func decode<T: RowRecord>(_ type: T.Type, naming: ColumnNaming) throws(StorageError) -> T {
        do {
            return try T(from: RowDecoding(row: self, naming: naming))
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(.corruptRow, "A row of the library is damaged: \(error).")
        }
    }
}

extension Array where Element == Row {
    /// The records these rows hold, as `Row.decode` reads each, their columns named once.
    public func decode<T: RowRecord>(_ type: T.Type) throws(StorageError) -> [T] {
        let naming = ColumnNaming(overrides: T.columnNames)
        return try map { row throws(StorageError) in try row.decode(type, naming: naming) }
    }
}

extension SQLConnection {
    /// Inserts `record` into `table`, its computed columns left out and `adding` columns that
    /// only the table has (what the record is sorted by, say); `ON CONFLICT DO NOTHING` with
    /// `ignoringConflicts`. The number of rows inserted.
    @discardableResult
    public func insert<T: RowRecord>(
        _ record: T, into table: String, adding: [(String, any SQLBindable)] = [], ignoringConflicts: Bool = false
    ) throws(StorageError) -> Int {
        let encoding = RowEncoding(naming: ColumnNaming(overrides: T.columnNames))
        do {
            try record.encode(to: encoding)
        } catch {
            throw StorageError(.corruptRow, "A row cannot be written: \(error).")
        }
        let columns = encoding.columns.values.filter { !T.computedColumns.contains($0.0) }.map { ($0.0, $0.1 as any SQLBindable) }
        return try insert(columns + adding, into: table, ignoringConflicts: ignoringConflicts)
    }

    /// Inserts one row of these columns and values into `table`; `ON CONFLICT DO NOTHING` with
    /// `ignoringConflicts`. The number of rows inserted.
    @discardableResult
    public func insert(_ columns: [(String, any SQLBindable)], into table: String, ignoringConflicts: Bool = false) throws(StorageError)
        -> Int
    {
        let sql = """
            INSERT INTO \(table) (\(columns.map(\.0).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))\
            \(ignoringConflicts ? " ON CONFLICT DO NOTHING" : "")
            """
        return try run(sql, columns.map(\.1))
    }
}

// MARK: Reading

private struct RowDecoding: Decoder {
    let row: Row
    let naming: ColumnNaming
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowColumnsDecoding(row: row, naming: naming))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StorageError(.corruptRow, "A row holds no list.")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw StorageError(.corruptRow, "A row holds no single value.")
    }
}

private struct RowColumnsDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: Row
    let naming: ColumnNaming
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    /// Every key is a column the row must have: `decodeNil` finds a missing one damaged, so an
    /// optional field never reads a missing column as NULL.
    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool { try naming.cell(key, of: row).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try naming.cell(key, of: row).flag() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try naming.cell(key, of: row).text() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try naming.cell(key, of: row).real() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try naming.cell(key, of: row).integer() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self is any RowColumns.Type {
            return try T(from: RowDecoding(row: row, naming: naming.nested))
        }
        let cell = try naming.cell(key, of: row)
        if let json = T.self as? any JSONColumn.Type {
            do {
                return try JSONDecoder().decode(T.self, from: Data(try cell.text().utf8))
            } catch let error as StorageError {
                throw error
            } catch {
                throw Row.damaged(cell.name, "is not \(json.columnDescription)")
            }
        }
        do {
            return try T(from: ColumnDecoding(cell: cell))
        } catch let error as StorageError {
            throw error
        } catch {
            throw Row.damaged(cell.name, "names nothing this version knows")
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(RowColumnsDecoding<NestedKey>(row: row, naming: naming.nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw Row.damaged(naming.column(key), "is not a list")
    }

    func superDecoder() throws -> any Decoder { RowDecoding(row: row, naming: naming) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoding(row: row, naming: naming) }
}

/// One column as a single value, for the enums a column names.
private struct ColumnDecoding: Decoder, SingleValueDecodingContainer {
    let cell: Cell
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw Row.damaged(cell.name, "is not a record")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Row.damaged(cell.name, "is not a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { cell.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try cell.flag() }
    func decode(_ type: String.Type) throws -> String { try cell.text() }
    func decode(_ type: Double.Type) throws -> Double { try cell.real() }
    func decode(_ type: Int.Type) throws -> Int { try cell.integer() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

// MARK: Writing

/// The columns a record encodes to, in the order of its keys.
private final class EncodedColumns {
    var values: [(String, SQLValue)] = []
}

private struct RowEncoding: Encoder {
    let naming: ColumnNaming
    let columns: EncodedColumns

    init(naming: ColumnNaming, columns: EncodedColumns = EncodedColumns()) {
        self.naming = naming
        self.columns = columns
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowColumnsEncoding(naming: naming, columns: columns))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("a row holds no list") }
    func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure("a row holds no single value") }
}

private struct RowColumnsEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let naming: ColumnNaming
    let columns: EncodedColumns
    var codingPath: [any CodingKey] { [] }

    private func put(_ value: SQLValue, _ key: Key) { columns.values.append((naming.column(key), value)) }

    mutating func encodeNil(forKey key: Key) { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { put(value.sqlValue, key) }
    mutating func encode(_ value: String, forKey key: Key) { put(value.sqlValue, key) }
    mutating func encode(_ value: Double, forKey key: Key) { put(value.sqlValue, key) }
    mutating func encode(_ value: Int, forKey key: Key) { put(value.sqlValue, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if value is any RowColumns {
            try value.encode(to: RowEncoding(naming: naming.nested, columns: columns))
        } else if value is any JSONColumn {
            put(.text(String(decoding: try JSONEncoder().encode(value), as: UTF8.self)), key)
        } else {
            let single = ColumnEncoding()
            try value.encode(to: single)
            put(single.value, key)
        }
    }

    /// An absent value is a NULL the insert says, not a column it leaves to the table's default.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { put(value?.sqlValue ?? .null, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) { put(value?.sqlValue ?? .null, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { put(value?.sqlValue ?? .null, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { put(value?.sqlValue ?? .null, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RowColumnsEncoding<NestedKey>(naming: naming.nested, columns: columns))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { preconditionFailure("a row holds no list") }
    mutating func superEncoder() -> any Encoder { RowEncoding(naming: naming, columns: columns) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RowEncoding(naming: naming, columns: columns) }
}

/// One column's value, for the enums a column names.
private final class ColumnEncoding: Encoder, SingleValueEncodingContainer {
    var value = SQLValue.null
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        preconditionFailure("a column holds no record")
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("a column holds no list") }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { value = .null }
    func encode(_ value: Bool) { self.value = value.sqlValue }
    func encode(_ value: String) { self.value = value.sqlValue }
    func encode(_ value: Double) { self.value = value.sqlValue }
    func encode(_ value: Int) { self.value = value.sqlValue }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}
