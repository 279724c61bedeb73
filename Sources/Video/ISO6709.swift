/// A position as a movie's container states it, in ISO 6709's text (Annex H): latitude then
/// longitude, each signed, in degrees (`+52.2097-000.8955`), degrees and minutes
/// (`+5212.58-00053.73`) or degrees, minutes and seconds (`+521234.9-0005343.8`), which the
/// digits before the point tell apart; an altitude may follow, then the closing `/`. iPhones
/// write it as `com.apple.quicktime.location.ISO6709`, Android's recorder as `location`.
package enum ISO6709 {
    /// The position `text` states, in signed decimal degrees; nil for anything else (a
    /// coordinate reference system's name, a minute of 60, a latitude of 91).
    package static func position(_ text: String) -> (latitude: Double, longitude: Double)? {
        var parts: [(negative: Bool, digits: Substring)] = []
        var rest = Substring(text)
        if rest.last == "/" { rest = rest.dropLast() }
        while let sign = rest.first {
            guard sign == "+" || sign == "-", parts.count < 3 else { return nil }
            let number = rest.dropFirst().prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            parts.append((sign == "-", number))
            rest = rest.dropFirst(1 + number.count)
        }
        guard parts.count >= 2, let latitude = degrees(parts[0].digits, wholeDegreeDigits: 2),
            let longitude = degrees(parts[1].digits, wholeDegreeDigits: 3), latitude <= 90, longitude <= 180
        else { return nil }
        if parts.count == 3, Double(parts[2].digits) == nil { return nil }
        return (parts[0].negative ? -latitude : latitude, parts[1].negative ? -longitude : longitude)
    }

    /// Degrees from `D…D[MM[SS]][.fraction]`, where the whole degrees are `wholeDegreeDigits` long.
    private static func degrees(_ digits: Substring, wholeDegreeDigits: Int) -> Double? {
        let whole = digits.prefix { $0 != "." }
        let fraction = digits.dropFirst(whole.count)
        guard fraction.isEmpty || (fraction.count > 1 && fraction.dropFirst().allSatisfy(\.isNumber)),
            whole.allSatisfy(\.isNumber), let value = Double(digits)
        else { return nil }
        switch whole.count {
        case wholeDegreeDigits:
            return value
        case wholeDegreeDigits + 2:
            let minutes = value.truncatingRemainder(dividingBy: 100)
            return minutes < 60 ? (value - minutes) / 100 + minutes / 60 : nil
        case wholeDegreeDigits + 4:
            let seconds = value.truncatingRemainder(dividingBy: 100)
            let minutes = ((value - seconds) / 100).truncatingRemainder(dividingBy: 100)
            guard seconds < 60, minutes < 60 else { return nil }
            return ((value - seconds) / 100 - minutes) / 100 + minutes / 60 + seconds / 3600
        default:
            return nil
        }
    }
}
