/// The content identifier an iPhone writes into the still of a Live Photo (tag 17 of Apple's
/// MakerNote); its movie carries the same text as `com.apple.quicktime.content.identifier`, and
/// that is how the two halves find each other, whichever arrives first.
///
/// Read by us, through `ByteReader`: libexif 0.6.24 lists the tag but garbles its text.
package enum AppleMakerNote {
    /// Longer text is no identifier an iPhone writes (they are UUIDs, 36 characters).
    static let maxIdentifierLength = 64

    /// The identifier in an EXIF block as libvips gives it (`exif-data`, with or without the
    /// `Exif\0\0` of a JPEG's APP1); nil when there is no Apple MakerNote or no readable tag 17.
    package static func contentIdentifier(exif: [UInt8]) -> String? {
        ByteReader.reading(exif) { reader in
            guard let note = makerNote(reader) else { return nil }
            return identifier(reader, note: note)
        }
    }

    /// Where the MakerNote's bytes start, found through IFD0's pointer to the EXIF IFD.
    private static func makerNote(_ reader: ByteReader) -> Int? {
        guard let exif = TIFFDirectory.exif(reader), let exifIFD = exif.directory.pointer(0x8769, inIFDAt: exif.ifd0),
            let note = exif.directory.entry(0x927C, inIFDAt: exifIFD), let offset = exif.directory.value(note)
        else { return nil }
        return reader.offset(exif.directory.base, plus: offset)
    }

    /// Tag 17 of the MakerNote at `note`: "Apple iOS\0", a version, a byte order, then an IFD
    /// whose offsets count from the MakerNote's own start.
    private static func identifier(_ reader: ByteReader, note: Int) -> String? {
        guard reader.matches(Array("Apple iOS\0".utf8), at: note), let order = reader.offset(note, plus: 12),
            let bigEndian = TIFFDirectory.isBigEndian(reader, at: order)
        else { return nil }
        let ifd = TIFFDirectory(reader: reader, base: note, bigEndian: bigEndian)
        guard let entry = ifd.entry(0x0011, inIFDAt: 14), entry.type == 2,
            (1...UInt32(maxIdentifierLength + 1)).contains(entry.count)
        else { return nil }
        let start: Int?
        if entry.count <= 4 {
            start = entry.position + 8
        } else {
            start = ifd.value(entry).flatMap { reader.offset(note, plus: $0) }
        }
        guard let start, let text = reader.slice(at: start, length: Int(entry.count)) else { return nil }
        // Which text is an identifier is the library's to say (`LivePhotoIdentifier`), for both halves alike.
        let characters = Array(text.prefix { $0 != 0 })
        return characters.isEmpty ? nil : String(decoding: characters, as: UTF8.self)
    }
}
