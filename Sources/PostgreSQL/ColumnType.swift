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

    /// bytea's text form: `\x` and two lowercase hex digits a byte.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else { return nil }
        // Digit by digit: UInt8(_:radix:) would also take a sign ("+f").
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func unreadable(_ column: String) -> StorageError {
        StorageError(.corruptRow, "A row of the library is damaged: its column \(column) does not read as its type.")
    }
}
