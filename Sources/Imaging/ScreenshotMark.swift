/// How an image says it is a screenshot: iOS and macOS write "Screenshot" as its EXIF
/// UserComment, in EXIF proper for JPEG and HEIC and in XMP (`exif:UserComment`, an `rdf:Alt`
/// of one entry) for PNG. Read by us from the XMP text; the EXIF value comes from libexif.
package enum ScreenshotMark {
    /// The longest XMP read: the mark sits in a packet of a few hundred bytes.
    static let searchedBytes = 64 * 1024

    package static func isScreenshot(userComment: String?, xmp: [UInt8]?) -> Bool {
        if ExifText.value(userComment) == marker { return true }
        guard let xmp else { return false }
        return says(xmp: String(decoding: xmp.prefix(searchedBytes), as: UTF8.self))
    }

    /// Whether XMP's UserComment is the marker, written as an attribute or as an element, plain or
    /// as the default entry of an `rdf:Alt`.
    package static func says(xmp: String) -> Bool {
        // The pattern is slow over long text: most photos' XMP has no such comment.
        guard xmp.contains(marker), xmp.contains("UserComment") else { return false }
        let attribute = try? Regex(#"[A-Za-z0-9]+:UserComment\s*=\s*["']\s*Screenshot\s*["']"#)
        let element = try? Regex(#"<[A-Za-z0-9]+:UserComment>\s*(<rdf:Alt>\s*<rdf:li[^<>]{0,64}>)?\s*Screenshot\s*</"#)
        return [attribute, element].compactMap { $0 }.contains { xmp.contains($0) }
    }

    static let marker = "Screenshot"
}
