import Foundation
import UTCTime

/// The moment of signing in the two UTC forms Signature Version 4 uses.
struct SigningTime {
    /// `20130524T000000Z`, for `x-amz-date` and the string to sign.
    let timestamp: String
    /// `20130524`, for the credential scope and the signing key.
    let day: String

    init(_ date: Date) {
        let time = UTCTime(date)
        let digits = UTCTime.digits
        day = digits(time.year, 4) + digits(time.month, 2) + digits(time.day, 2)
        timestamp = day + "T" + digits(time.hour, 2) + digits(time.minute, 2) + digits(time.second, 2) + "Z"
    }
}
