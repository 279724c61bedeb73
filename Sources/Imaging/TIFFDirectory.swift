/// The entries of one TIFF image file directory (EXIF's structure), read through `ByteReader`:
/// each entry is a tag, a type, a count and a value, or the offset of a value that does not fit
/// in four bytes; offsets count from `base`, the start of the TIFF header (or of a MakerNote that
/// counts from itself).
package struct TIFFDirectory {
    package struct Entry {
        /// Where the entry's 12 bytes are.
        package let position: Int
        package let tag: UInt16
        package let type: UInt16
        package let count: UInt32
    }

    let reader: ByteReader
    let base: Int
    let bigEndian: Bool

    /// TIFF's byte order mark: `MM` big-endian, `II` little-endian, else no TIFF.
    static func isBigEndian(_ reader: ByteReader, at offset: Int) -> Bool? {
        if reader.matches(Array("MM".utf8), at: offset) { return true }
        if reader.matches(Array("II".utf8), at: offset) { return false }
        return nil
    }

    /// Where the IFD `offset` bytes past `base` starts, and its entries. Directories of real
    /// files hold a few dozen; at most 1,000 are read, and an entry past the end ends the list.
    func entries(inIFDAt offset: Int) -> (start: Int, entries: [Entry])? {
        guard let start = reader.offset(base, plus: offset), let count = reader.integer(UInt16.self, at: start, bigEndian: bigEndian)
        else { return nil }
        var entries: [Entry] = []
        for index in 0..<min(Int(count), 1000) {
            let position = start + 2 + index * 12
            guard let tag = reader.integer(UInt16.self, at: position, bigEndian: bigEndian),
                let type = reader.integer(UInt16.self, at: position + 2, bigEndian: bigEndian),
                let length = reader.integer(UInt32.self, at: position + 4, bigEndian: bigEndian)
            else { break }
            entries.append(Entry(position: position, tag: tag, type: type, count: length))
        }
        return (start, entries)
    }

    func entry(_ tag: UInt16, inIFDAt offset: Int) -> Entry? {
        entries(inIFDAt: offset)?.entries.first { $0.tag == tag }
    }

    /// The entry's value field as a 32-bit number: an offset, for what does not fit in it.
    func value(_ entry: Entry) -> Int? {
        reader.integer(UInt32.self, at: entry.position + 8, bigEndian: bigEndian).map(Int.init)
    }

    /// Where the entry's value bytes are: in the entry itself when they fit in four bytes, else
    /// at its offset; nil for a type TIFF (or EXIF 3.0, whose 129 is UTF-8 text) does not define
    /// or a value past the end.
    func valueBytes(_ entry: Entry) -> Range<Int>? {
        let sizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 129: 1]
        guard let size = sizes[entry.type] else { return nil }
        let (length, overflow) = Int(entry.count).multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        if length <= 4 {
            guard let end = reader.offset(entry.position + 8, plus: length) else { return nil }
            return entry.position + 8..<end
        }
        guard let offset = value(entry), let start = reader.offset(base, plus: offset), let end = reader.offset(start, plus: length)
        else { return nil }
        return start..<end
    }
}
