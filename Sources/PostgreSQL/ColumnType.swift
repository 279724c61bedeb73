package import Storage

/// How a column's text (libpq's text format) reads, by the column's type OID (the values are
/// PostgreSQL's own, fixed in pg_type.dat). Integers and flags come back as integers, as SQLite's
/// do, so rows read the same whichever engine they came from.
package enum ColumnType {
    static let boolean: UInt32 = 16
    package static let bytea: UInt32 = 17
    static let integers: Set<UInt32> = [20, 21, 23, 26]
    static let reals: Set<UInt32> = [700, 701, 1700]

    package static func value(_ text: String, type: UInt32, _ column: String) throws(StorageError) -> SQLValue {
        switch type {
        case boolean: return .integer(text == "t" ? 1 : 0)
        case _ where integers.contains(type):
            guard let number = Int64(text) else { throw unreadable(column) }
            return .integer(number)
        case _ where reals.contains(type):
            guard let number = Double(text) else { throw unreadable(column) }
            return .real(number)
        case bytea:
            guard let bytes = hexBytes(text) else { throw unreadable(column) }
            return .blob(bytes)
        default: return .text(text)
        }
    }

    /// bytea's text form: `\x` and two hex digits a byte.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = text.utf8
        guard digits.starts(with: "\\x".utf8) else { return nil }
        return Hex.bytes(digits.dropFirst(2))
    }

    private static func unreadable(_ column: String) -> StorageError {
        StorageError(.corruptRow, "A row of the library is damaged: its column \(column) does not read as its type.")
    }
}
