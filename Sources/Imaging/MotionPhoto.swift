import Foundation

/// Google's Motion Photo (and the older MicroVideo): a JPEG or HEIC with a short MP4 appended,
/// which its XMP announces (`Camera:MotionPhoto="1"` with a `Container:Directory` item of
/// semantic `MotionPhoto` and its `Length`, or `MicroVideo="1"` with `MicroVideoOffset`, both
/// counted from the end of the file). Read by us: the movie is the file's last `length` bytes, and
/// only when they start as an MP4 does the library take them for one.
package enum MotionPhoto {
    /// XMP packets sit in a file's first bytes (a JPEG's APP1, a HEIC's metadata item before its
    /// image data); further in is pixels.
    package static let searchedBytes = 256 * 1024

    /// The length of the movie at the end of a file of `fileSize` bytes whose first bytes are
    /// `head`, when its XMP announces one that fits; the caller then checks that the bytes
    /// there begin a movie (`startsAMovie`).
    package static func announcedLength(head: [UInt8], fileSize: Int) -> Int? {
        guard let xmp = xmpPacket(head), let length = movieLength(xmp: xmp), length >= 8, length < fileSize else { return nil }
        return length
    }

    /// Whether the bytes where the movie should start begin an ISO file (`ftyp` as its first box).
    package static func startsAMovie(_ bytes: [UInt8]) -> Bool {
        ByteReader.reading(bytes) { $0.fourCC(at: 4) == "ftyp" }
    }

    /// The XMP packet among a file's first bytes, as text.
    package static func xmpPacket(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(searchedBytes)
        guard let start = head.firstRange(of: Array("<x:xmpmeta".utf8)),
            let end = head[start.upperBound...].firstRange(of: Array("</x:xmpmeta>".utf8))
        else { return nil }
        return String(decoding: head[start.lowerBound..<end.upperBound], as: UTF8.self)
    }

    /// The movie's length the XMP states: the Container directory's MotionPhoto item, else the
    /// MicroVideo offset; nil unless the photo says it is a motion photo.
    package static func movieLength(xmp: String) -> Int? {
        // The patterns below are slow over long text: most photos' XMP names neither.
        guard xmp.contains("MotionPhoto") || xmp.contains("MicroVideo") else { return nil }
        if value("MotionPhoto", in: xmp) == "1" {
            // Items in order, each the text from its "Item" element to the next one's.
            let items = xmp.components(separatedBy: "Container:Item").dropFirst()
            for item in items where value("Semantic", in: item) == "MotionPhoto" {
                return value("Length", in: item).flatMap(length)
            }
        }
        if value("MicroVideo", in: xmp) == "1" {
            return value("MicroVideoOffset", in: xmp).flatMap(length)
        }
        return nil
    }

    /// A property's value, written as an attribute (`Prefix:Name="value"`) or as an element
    /// (`<Prefix:Name>value</Prefix:Name>`), whatever the prefix.
    private static func value(_ name: String, in text: String) -> String? {
        let attribute = try? Regex("[A-Za-z0-9]+:\(name)\\s*=\\s*[\"']([^\"'<>]{0,32})[\"']")
        let element = try? Regex("<[A-Za-z0-9]+:\(name)>([^<>]{0,32})</")
        for pattern in [attribute, element].compactMap({ $0 }) {
            if let match = text.firstMatch(of: pattern), let captured = match.output[1].substring {
                return captured.trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// A stated length: digits only, and no more than any file the library takes.
    private static func length(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
