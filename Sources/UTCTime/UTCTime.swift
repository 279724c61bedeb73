public import Foundation

/// A moment's calendar parts in UTC, by the C library's `gmtime_r`. Foundation's `Calendar` and
/// its date format styles load ICU's time-zone tables on first use, megabytes of a process's
/// memory, for a zone that is UTC in every text we write: the library's stored moments, S3's
/// signing time, tus' expiry.
public struct UTCTime: Sendable {
    public let year: Int
    /// 1 to 12.
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// 0 is Sunday.
    public let weekday: Int
    /// Past the second, cut rather than rounded, as Foundation's ISO 8601 style cuts them.
    public let milliseconds: Int

    public init(_ date: Date) {
        let whole = date.timeIntervalSince1970.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        weekday = Int(parts.tm_wday)
        milliseconds = Int(((date.timeIntervalSince1970 - whole) * 1000).rounded(.down))
    }

    /// ISO 8601 in UTC: `2026-12-03T23:49:21Z`, or to the millisecond, `2026-12-03T23:49:21.123Z`.
    public func iso8601(milliseconds withMilliseconds: Bool = false) -> String {
        let digits = Self.digits
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(hour, 2)):\(digits(minute, 2)):\(digits(second, 2))"
            + (withMilliseconds ? ".\(digits(milliseconds, 3))" : "") + "Z"
    }

    /// `value` in at least `width` digits, zeros in front.
    public static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
