import Digests
package import Storage
import UTCTime

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
        guard let moment = WrittenMoment(text, separator: UInt8(ascii: " "), ending: zoned ? "+00" : "") else { return nil }
        guard zoned else { return moment.fraction.isEmpty ? moment.seconds : moment.seconds + "." + moment.fraction }
        let milliseconds = moment.fraction.prefix(3)
        return moment.seconds + "." + milliseconds + String(repeating: "0", count: 3 - milliseconds.count) + "Z"
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
