import Foundation

/// A moment as text writes it, `YYYY-MM-DD`, a separator, `HH:MM:SS`, perhaps a fraction of a
/// second, then a fixed ending (a zone, or nothing): the one reading of that layout, for the
/// library's stored moments and PostgreSQL's text of its timestamps alike.
public struct WrittenMoment: Sendable, Equatable {
    /// `YYYY-MM-DDTHH:MM:SS`, with `T` whatever the separator was.
    public let seconds: String
    /// The fraction's digits, empty for none.
    public let fraction: String
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// nil unless `text` is the layout with `separator` between day and time, ending in `ending`.
    /// Digits only where digits go, so every field reads; whether they make a day of the
    /// calendar is `isOnTheCalendar`'s to say.
    public init?(_ text: String, separator: UInt8, ending: String) {
        var utf8 = Array(text.utf8)
        guard utf8.suffix(ending.utf8.count).elementsEqual(ending.utf8) else { return nil }
        utf8.removeLast(ending.utf8.count)
        let (dash, colon) = (UInt8(ascii: "-"), UInt8(ascii: ":"))
        let separators: [Int: UInt8] = [4: dash, 7: dash, 10: separator, 13: colon, 16: colon]
        guard utf8.count >= 19,
            utf8[..<19].enumerated().allSatisfy({ offset, byte in separators[offset].map { $0 == byte } ?? Self.isDigit(byte) })
        else { return nil }
        let rest = utf8[19...]
        if let point = rest.first {
            guard point == UInt8(ascii: "."), rest.count > 1, rest.dropFirst().allSatisfy(Self.isDigit) else { return nil }
        }
        let number = { (range: Range<Int>) in utf8[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        (hour, minute, second) = (number(11..<13), number(14..<16), number(17..<19))
        seconds = String(decoding: utf8[..<10], as: UTF8.self) + "T" + String(decoding: utf8[11..<19], as: UTF8.self)
        fraction = String(decoding: rest.dropFirst(), as: UTF8.self)
    }

    /// Whether it names a day of the (proleptic Gregorian) calendar from year 1 and a time of day.
    public var isOnTheCalendar: Bool {
        guard year >= 1, (1...12).contains(month) else { return false }
        return (1...Self.daysIn(month, of: year)).contains(day) && hour < 24 && minute < 60 && second < 60
    }

    /// A moment as ISO 8601 writes it with its zone, `Z` or `±HH:MM` (ffprobe's `creation_time`),
    /// in seconds since 1970; nil unless it is that layout and a moment of the calendar.
    public static func secondsSince1970(zoned text: String) -> Int? {
        if let moment = WrittenMoment(text, separator: UInt8(ascii: "T"), ending: "Z") {
            return moment.isOnTheCalendar ? moment.secondsSince1970 : nil
        }
        let zone = Array(text.utf8.suffix(6))
        guard zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), zone[3] == UInt8(ascii: ":"),
            [1, 2, 4, 5].allSatisfy({ isDigit(zone[$0]) }),
            let moment = WrittenMoment(text, separator: UInt8(ascii: "T"), ending: String(decoding: zone, as: UTF8.self)),
            moment.isOnTheCalendar
        else { return nil }
        let number = { (at: Int) in Int(zone[at] - 0x30) * 10 + Int(zone[at + 1] - 0x30) }
        let (hours, minutes) = (number(1), number(4))
        guard hours < 24, minutes < 60 else { return nil }
        let east = (hours * 3600 + minutes * 60) * (zone[0] == UInt8(ascii: "+") ? 1 : -1)
        return moment.secondsSince1970 - east
    }

    /// The moment read as UTC, in seconds since 1970 (`timegm`: no time-zone tables).
    private var secondsSince1970: Int {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int(timegm(&parts))
    }

    /// The days of `month` in `year`.
    public static func daysIn(_ month: Int, of year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
