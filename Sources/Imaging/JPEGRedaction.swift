/// A JPEG's bytes without its location or its captions, everything else kept bit for bit (the
/// pixels are never decoded): what a pick that removes them gives when the original is a JPEG.
///
/// - Location: the EXIF GPS directory is emptied and its values zeroed, in place, so that no
///   offset in the EXIF block moves.
/// - Captions: the EXIF ImageDescription, UserComment and Windows XP title, comment and subject
///   are zeroed in place, and COM segments dropped.
/// - Either: XMP and IPTC segments are dropped whole, as both can hold both.
package enum JPEGRedaction {
    package struct Removal: OptionSet, Sendable, Hashable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let location = Removal(rawValue: 1)
        package static let captions = Removal(rawValue: 2)
    }

    /// The redacted JPEG, or nil when the bytes are no JPEG whose segments can be walked to the
    /// start of its scan (the caller then gives a re-encoded image, which carries no metadata).
    package static func redacted(_ bytes: [UInt8], removing removal: Removal) -> [UInt8]? {
        ByteReader.reading(bytes) { reader -> [UInt8]? in
            guard reader.matches([0xFF, 0xD8], at: 0) else { return nil }
            var output: [UInt8] = [0xFF, 0xD8]
            var offset = 2
            while true {
                guard reader.byte(at: offset) == 0xFF, let marker = reader.byte(at: offset + 1) else { return nil }
                if marker == 0xFF {
                    // A fill byte before the marker.
                    offset += 1
                    continue
                }
                if marker == 0xDA || marker == 0xD9 {
                    output += bytes[offset...]
                    return output
                }
                if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                    output += [0xFF, marker]
                    offset += 2
                    continue
                }
                guard let length = reader.integer(UInt16.self, at: offset + 2), length >= 2,
                    let end = reader.offset(offset + 2, plus: Int(length))
                else { return nil }
                let payload = offset + 4..<end
                switch kind(marker, reader, payload) {
                case .exif:
                    var segment = Array(bytes[offset..<end])
                    // Offsets are the file's to state: only the segment's own bytes are touched.
                    for range in redactions(in: reader, tiff: payload.lowerBound + 6, removing: removal) {
                        for index in range.clamped(to: payload) { segment[index - offset] = 0 }
                    }
                    output += segment
                case .metadata where !removal.isEmpty, .comment where removal.contains(.captions):
                    break
                default:
                    output += bytes[offset..<end]
                }
                offset = end
            }
        }
    }

    private enum Kind { case exif, metadata, comment, other }

    private static func kind(_ marker: UInt8, _ reader: ByteReader, _ payload: Range<Int>) -> Kind {
        switch marker {
        case 0xE1 where reader.matches(Array("Exif\0\0".utf8), at: payload.lowerBound): .exif
        case 0xE1 where reader.matches(Array("http://ns.adobe.com/".utf8), at: payload.lowerBound): .metadata
        case 0xED: .metadata
        case 0xFE: .comment
        default: .other
        }
    }

    /// The byte ranges of the EXIF block at `tiff` to zero, and the GPS directory's entry count.
    private static func redactions(in reader: ByteReader, tiff: Int, removing removal: Removal) -> [Range<Int>] {
        guard let header = TIFFDirectory.header(reader, at: tiff), let ifd0 = header.directory.entries(inIFDAt: header.ifd0) else {
            return []
        }
        let directory = header.directory
        var ranges: [Range<Int>] = []
        if removal.contains(.location), let pointer = ifd0.entries.first(where: { $0.tag == 0x8825 }), let gps = directory.value(pointer),
            let found = directory.entries(inIFDAt: gps)
        {
            ranges += found.entries.compactMap(directory.valueBytes)
            // The entries, and their count: the directory is left empty, which TIFF allows.
            ranges.append(found.start..<found.start + 2 + found.entries.count * 12)
        }
        if removal.contains(.captions) {
            let captions: Set<UInt16> = [0x010E, 0x9C9B, 0x9C9C, 0x9C9F]
            ranges += ifd0.entries.filter { captions.contains($0.tag) }.compactMap(directory.valueBytes)
            if let pointer = ifd0.entries.first(where: { $0.tag == 0x8769 }), let exif = directory.value(pointer),
                let found = directory.entries(inIFDAt: exif)
            {
                ranges += found.entries.filter { $0.tag == 0x9286 }.compactMap(directory.valueBytes)
            }
        }
        return ranges
    }
}
