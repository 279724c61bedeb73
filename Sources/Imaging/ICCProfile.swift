/// Just enough of the ICC profile format to tell an sRGB profile: its description tag.
enum ICCProfile {
    /// Whether an RGB profile describes itself as sRGB ("sRGB IEC61966-2.1", "sRGB built-in", ...).
    static func isSRGB(_ profile: [UInt8]) -> Bool {
        guard profile.count >= 132, String(decoding: profile[16..<20], as: UTF8.self) == "RGB " else { return false }
        guard let description = description(profile) else { return false }
        return description.contains("sRGB")
    }

    private static func description(_ profile: [UInt8]) -> String? {
        let count = Int(bigEndian32(profile, 128))
        for index in 0..<min(count, 100) {
            let entry = 132 + index * 12
            guard entry + 12 <= profile.count else { return nil }
            guard String(decoding: profile[entry..<entry + 4], as: UTF8.self) == "desc" else { continue }
            let offset = Int(bigEndian32(profile, entry + 4))
            let size = Int(bigEndian32(profile, entry + 8))
            guard offset >= 0, size >= 12, offset + size <= profile.count else { return nil }
            let tag = Array(profile[offset..<offset + size])
            switch String(decoding: tag[0..<4], as: UTF8.self) {
            case "desc":
                // ICC v2: an ASCII count, then the text.
                let length = min(Int(bigEndian32(tag, 8)), tag.count - 12)
                return length > 0 ? String(decoding: tag[12..<12 + length], as: UTF8.self) : nil
            case "mluc":
                // ICC v4: records of UTF-16BE strings; the first one will do.
                guard tag.count >= 28 else { return nil }
                let length = Int(bigEndian32(tag, 20))
                let start = Int(bigEndian32(tag, 24))
                guard start + length <= tag.count, length >= 2 else { return nil }
                let units = stride(from: start, to: start + length - 1, by: 2).map { UInt16(tag[$0]) << 8 | UInt16(tag[$0 + 1]) }
                return String(decoding: units, as: UTF16.self)
            default:
                return nil
            }
        }
        return nil
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }
}
