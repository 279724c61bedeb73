import Foundation

/// Reading libexif's text renderings of EXIF values, which libvips stores as
/// "<value> (<value>, <format>, <n> components, <m> bytes)".
package enum ExifText {
    /// The value alone, cleaned of control characters and capped in length: metadata is
    /// untrusted text and is kept as inert data.
    package static func value(_ rendered: String?) -> String? {
        rendered.flatMap { cleaned(stripFormatSuffix($0)) }
    }

    /// Text as a file states it, kept the same way: without control characters or the spaces
    /// around it, at most `maxLength` characters, nil when nothing is left.
    package static func cleaned(_ text: String) -> String? {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            .trimmingCharacters(in: .whitespaces)
        guard !cleaned.isEmpty else { return nil }
        return String(cleaned.prefix(maxLength))
    }

    package static let maxLength = 120

    /// EXIF "YYYY:MM:DD HH:MM:SS" as ISO 8601, with the offset when one was recorded.
    package static func date(_ rendered: String?, offset: String?) -> String? {
        guard let text = value(rendered) else { return nil }
        let chars = Array(text.prefix(19))
        guard chars.count == 19 else { return nil }
        let separators: [Int: Set<Character>] = [4: [":", "-"], 7: [":", "-"], 10: [" ", "T"], 13: [":"], 16: [":"]]
        for (index, char) in chars.enumerated() {
            if let allowed = separators[index] {
                guard allowed.contains(char) else { return nil }
            } else if !char.isASCII || !char.isNumber {
                return nil
            }
        }
        guard let year = Int(String(chars[0..<4])), year > 1800 else { return nil }
        var iso = String(chars[0..<4]) + "-" + String(chars[5..<7]) + "-" + String(chars[8..<10])
        iso += "T" + String(chars[11..<19])
        if let offset = value(offset), isOffset(offset) { iso += offset }
        return iso
    }

    private static func isOffset(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":") else {
            return false
        }
        return [1, 2, 4, 5].allSatisfy { bytes[$0] >= 48 && bytes[$0] <= 57 }
    }

    private static func stripFormatSuffix(_ rendered: String) -> String {
        // "<v> (<v>, ASCII, 6 components, 6 bytes)": peel the trailing ", ..." parts off, then the
        // rest is "<v> (<v>", whose halves are equal for text values.
        guard rendered.hasSuffix(")"), let open = rendered.range(of: " (") else { return rendered }
        var inner = rendered.dropLast()
        for _ in 0..<3 {
            guard let comma = inner.range(of: ", ", options: .backwards) else { return String(rendered[..<open.lowerBound]) }
            inner = inner[..<comma.lowerBound]
        }
        let doubled = String(inner)
        let valueLength = (doubled.count - 2) / 2
        if valueLength >= 0, doubled.count == 2 * valueLength + 2 {
            let first = doubled.prefix(valueLength)
            let second = doubled.suffix(valueLength)
            if first == second && doubled.dropFirst(valueLength).hasPrefix(" (") { return String(first) }
        }
        return String(rendered[..<open.lowerBound])
    }
}
