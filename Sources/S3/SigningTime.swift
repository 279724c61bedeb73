import Foundation

/// The moment of signing in the two UTC forms Signature Version 4 uses.
struct SigningTime {
    /// `20130524T000000Z`, for `x-amz-date` and the string to sign.
    let timestamp: String
    /// `20130524`, for the credential scope and the signing key.
    let day: String

    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func digits(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        day = digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
        timestamp = day + "T" + digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2) + "Z"
    }
}
