package import Storage

/// How a column's text (libpq's text format) reads, by the column's type OID (the values are
/// PostgreSQL's own, fixed in pg_type.dat). Integers and flags come back as integers, as SQLite's
/// do, and moments as the ISO 8601 text SQLite keeps, so rows read the same whichever engine
/// they came from.
package enum ColumnType {
    static let boolean: UInt32 = 16
    package static let bytea: UInt32 = 17
    static let integers: Set<UInt32> = [20, 21, 23, 26]
    static let reals: Set<UInt32> = [700, 701, 1700]
    package static let timestamp: UInt32 = 1114
    package static let timestamptz: UInt32 = 1184

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
        case timestamp:
            guard let moment = isoMoment(text, zoned: false) else { throw unreadable(column) }
            return .text(moment)
        case timestamptz:
            guard let moment = isoMoment(text, zoned: true) else { throw unreadable(column) }
            return .text(moment)
        default: return .text(text)
        }
    }

    /// A moment in DateStyle ISO ("2026-12-03 23:49:21.12+00", the connection's zone UTC) as the
    /// library writes one: "2026-12-03T23:49:21.120Z" with a zone, to the millisecond as
    /// `Library.timestamp` writes it; "2026-12-03T23:49:21" without one, as a camera's clock
    /// reads. Years past 9999, BC and infinity are none of ours.
    private static func isoMoment(_ text: String, zoned: Bool) -> String? {
        let digits: ClosedRange<UInt8> = 0x30...0x39
        let (dash, space, colon) = (UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: ":"))
        let separators: [Int: UInt8] = [4: dash, 7: dash, 10: space, 13: colon, 16: colon]
        var utf8 = Array(text.utf8)
        if zoned {
            guard utf8.suffix(3).elementsEqual("+00".utf8) else { return nil }
            utf8.removeLast(3)
        }
        guard utf8.count >= 19,
            utf8[..<19].enumerated().allSatisfy({ offset, byte in separators[offset].map { $0 == byte } ?? digits.contains(byte) })
        else { return nil }
        var fraction = utf8[19...]
        if let point = fraction.first {
            guard point == UInt8(ascii: "."), fraction.count > 1, fraction.dropFirst().allSatisfy(digits.contains) else { return nil }
            fraction = fraction.dropFirst()
        }
        let seconds = String(decoding: utf8[..<10], as: UTF8.self) + "T" + String(decoding: utf8[11..<19], as: UTF8.self)
        guard zoned else { return fraction.isEmpty ? seconds : seconds + "." + String(decoding: fraction, as: UTF8.self) }
        let milliseconds = String(decoding: fraction.prefix(3), as: UTF8.self)
        return seconds + "." + milliseconds + String(repeating: "0", count: 3 - milliseconds.count) + "Z"
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
