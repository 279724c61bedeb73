internal import CLCMS2

/// An embedded ICC profile, read by lcms2 (the library libvips transforms colours with).
package enum ICCProfile {
    /// Whether an RGB profile describes itself as sRGB ("sRGB IEC61966-2.1", "sRGB built-in", ...).
    package static func isSRGB(_ profile: [UInt8]) -> Bool {
        guard let size = UInt32(exactly: profile.count) else { return false }
        return profile.withUnsafeBytes { bytes in
            guard let handle = cmsOpenProfileFromMem(bytes.baseAddress, size) else { return false }
            defer { cmsCloseProfile(handle) }
            guard cmsGetColorSpace(handle) == cmsSigRgbData else { return false }
            return description(handle)?.contains("sRGB") ?? false
        }
    }

    /// The profile's description in English, or its first one: v2 `desc` and v4 `mluc` alike.
    private static func description(_ handle: cmsHPROFILE) -> String? {
        var text = [CChar](repeating: 0, count: 256)
        let written = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &text, UInt32(text.count))
        guard written > 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
