/// A moment as ZIP stores a file's modification time (MS-DOS date and time, APPNOTE 4.4.6):
/// wall-clock time with no zone, in two-second steps, from 1980 to 2107.
struct DOSTimestamp: Sendable, Equatable {
    let date: UInt16
    let time: UInt16

    static let earliest = DOSTimestamp(year: 1980, month: 1, day: 1, hour: 0, minute: 0, second: 0)
    static let latest = DOSTimestamp(year: 2107, month: 12, day: 31, hour: 23, minute: 59, second: 59)

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        date = UInt16((year - 1980) << 9 | month << 5 | day)
        time = UInt16(hour << 11 | minute << 5 | second / 2)
    }

    /// The clock time an ISO 8601 date of the library's states ("2024-05-01T12:34:56", whatever
    /// follows: a fraction, a zone), as the file it came from stated it; a year outside DOS's range
    /// is its nearest end. nil for text of another shape.
    init?(iso text: String) {
        let digits = Array(text.utf8.prefix(19))
        guard digits.count == 19, [4: "-", 7: "-", 10: "T", 13: ":", 16: ":"].allSatisfy({ digits[$0.key] == UInt8(ascii: $0.value) })
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            digits[range].reduce(0 as Int?) { total, digit in
                guard let total, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
                return total * 10 + Int(digit - UInt8(ascii: "0"))
            }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        if year < 1980 {
            self = .earliest
        } else if year > 2107 {
            self = .latest
        } else {
            // A leap second is the last of its minute.
            self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        }
    }
}
