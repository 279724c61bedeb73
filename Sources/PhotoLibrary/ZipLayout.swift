/// Where everything goes in a ZIP archive of files stored as they are (method 0: photos and
/// videos do not compress) whose sizes are known before their bytes, so that the archive's exact
/// size is known before its first byte. Only each file's CRC-32 is learnt while it streams: it
/// follows the file's bytes in a data descriptor (general purpose flag bit 3) and is repeated in
/// the central directory. Names are UTF-8 (flag bit 11). Section numbers are those of PKWARE's
/// APPNOTE.TXT 6.3.10.
///
/// A value that does not fit its 32-bit field takes ZIP64's (a selection of videos passes 4 GiB
/// easily): a file of 4 GiB or more carries the ZIP64 extra field (4.5.3) in both its headers and
/// 8-byte sizes in its data descriptor (4.3.9.2); a file that starts past 4 GiB, its offset in the
/// central directory's ZIP64 extra field; and an archive whose central directory starts past
/// 4 GiB (or is as large, or counts 65,535 files) ends with ZIP64's end record and locator
/// (4.3.14, 4.3.15). The layout depends on sizes and names alone, never on the bytes.
struct ZipLayout: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var name: String
        var size: Int
        var modified: DOSTimestamp
    }

    let entries: [Entry]
    /// Where each entry's local header starts.
    let offsets: [Int]
    let centralDirectoryOffset: Int
    let centralDirectorySize: Int
    let size: Int
    /// Whether the archive ends with ZIP64's end record and locator before the classic end record.
    private let endsWithZip64: Bool
    /// Values from this one up go into ZIP64's fields: by default 0xFFFFFFFF, which in a 32-bit
    /// field says "see ZIP64"; lower only to try ZIP64's records on small archives.
    private let zip64Threshold: Int

    /// Version 2.0 reads stored files, data descriptors and UTF-8 names; 4.5, ZIP64 (4.4.3.2).
    private static let basicVersion: UInt16 = 20
    private static let zip64Version: UInt16 = 45
    /// Made on Unix (3), to APPNOTE 4.5: the external attributes are a Unix mode (4.4.2).
    private static let madeBy: UInt16 = 3 << 8 | 45
    /// A regular file, read-write for its owner and readable by everyone (`-rw-r--r--`).
    private static let externalAttributes: UInt32 = 0o100644 << 16
    /// Data descriptor (bit 3) and UTF-8 names (bit 11).
    private static let flags: UInt16 = 1 << 3 | 1 << 11
    private static let zip64Marker: UInt32 = 0xFFFF_FFFF
    private static let localHeaderSize = 30
    private static let centralHeaderSize = 46
    private static let zip64EndSize = 56
    private static let zip64LocatorSize = 20
    private static let endSize = 22

    init(_ entries: [Entry], zip64Threshold: Int = 0xFFFF_FFFF) {
        self.entries = entries
        self.zip64Threshold = zip64Threshold
        var offsets: [Int] = []
        offsets.reserveCapacity(entries.count)
        var offset = 0
        for entry in entries {
            offsets.append(offset)
            let zip64 = entry.size >= zip64Threshold
            offset += Self.localHeaderSize + entry.name.utf8.count + (zip64 ? 20 : 0) + entry.size + (zip64 ? 24 : 16)
        }
        self.offsets = offsets
        centralDirectoryOffset = offset
        var directorySize = 0
        for (entry, offset) in zip(entries, offsets) {
            let wide = Self.zip64Fields(size: entry.size, offset: offset, threshold: zip64Threshold).count
            directorySize += Self.centralHeaderSize + entry.name.utf8.count + (wide == 0 ? 0 : 4 + 8 * wide)
        }
        centralDirectorySize = directorySize
        endsWithZip64 = entries.count >= min(zip64Threshold, 0xFFFF) || directorySize >= zip64Threshold || offset >= zip64Threshold
        size = offset + directorySize + (endsWithZip64 ? Self.zip64EndSize + Self.zip64LocatorSize : 0) + Self.endSize
    }

    /// The values of an entry's central ZIP64 extra field, in APPNOTE's order (4.5.3): its sizes
    /// (uncompressed, then compressed: the same here) when they do not fit, its offset when that
    /// does not.
    private static func zip64Fields(size: Int, offset: Int, threshold: Int) -> [Int] {
        (size >= threshold ? [size, size] : []) + (offset >= threshold ? [offset] : [])
    }

    private func hasZip64Sizes(_ index: Int) -> Bool { entries[index].size >= zip64Threshold }

    private func version(_ index: Int) -> UInt16 {
        hasZip64Sizes(index) || offsets[index] >= zip64Threshold ? Self.zip64Version : Self.basicVersion
    }

    /// A 32-bit field's value: the value, or the marker that sends readers to ZIP64's field.
    private func narrow(_ value: Int) -> UInt32 {
        value >= zip64Threshold ? Self.zip64Marker : UInt32(value)
    }

    /// The local file header (4.3.7) that goes right before entry `index`'s bytes. Its CRC and
    /// sizes are zero, as bit 3 asks (4.4.4), except that a ZIP64 extra field must carry both
    /// sizes (4.5.3), which are known.
    func localHeader(_ index: Int) -> [UInt8] {
        let entry = entries[index]
        let name = Array(entry.name.utf8)
        let zip64 = hasZip64Sizes(index)
        var record = LittleEndianBytes(capacity: Self.localHeaderSize + name.count + 20)
        record.append(0x0403_4B50 as UInt32)
        record.append(version(index))
        record.append(Self.flags)
        record.append(0 as UInt16)
        record.append(entry.modified.time)
        record.append(entry.modified.date)
        record.append(0 as UInt32)
        record.append(zip64 ? Self.zip64Marker : 0)
        record.append(zip64 ? Self.zip64Marker : 0)
        record.append(UInt16(name.count))
        record.append(UInt16(zip64 ? 20 : 0))
        record.bytes += name
        if zip64 {
            record.append(1 as UInt16)
            record.append(16 as UInt16)
            record.append(UInt64(entry.size))
            record.append(UInt64(entry.size))
        }
        return record.bytes
    }

    /// The data descriptor (4.3.9) that follows entry `index`'s bytes, with their CRC-32; its
    /// sizes are 8 bytes each when the local header has the ZIP64 extra field (4.3.9.2).
    func dataDescriptor(_ index: Int, crc: UInt32) -> [UInt8] {
        let size = entries[index].size
        var record = LittleEndianBytes(capacity: 24)
        record.append(0x0807_4B50 as UInt32)
        record.append(crc)
        if hasZip64Sizes(index) {
            record.append(UInt64(size))
            record.append(UInt64(size))
        } else {
            record.append(UInt32(size))
            record.append(UInt32(size))
        }
        return record.bytes
    }

    /// What follows the last entry: the central directory (4.3.12), a header for each entry with
    /// its CRC-32 from `crcs`, then the end records.
    func trailer(crcs: [UInt32]) -> [UInt8] {
        precondition(crcs.count == entries.count, "a CRC for each entry")
        var record = LittleEndianBytes(capacity: size - centralDirectoryOffset)
        for (index, entry) in entries.enumerated() {
            let name = Array(entry.name.utf8)
            let wide = Self.zip64Fields(size: entry.size, offset: offsets[index], threshold: zip64Threshold)
            record.append(0x0201_4B50 as UInt32)
            record.append(Self.madeBy)
            record.append(version(index))
            record.append(Self.flags)
            record.append(0 as UInt16)
            record.append(entry.modified.time)
            record.append(entry.modified.date)
            record.append(crcs[index])
            record.append(narrow(entry.size))
            record.append(narrow(entry.size))
            record.append(UInt16(name.count))
            record.append(UInt16(wide.isEmpty ? 0 : 4 + 8 * wide.count))
            // No comment, disk 0, no internal attributes.
            record.append(0 as UInt16)
            record.append(0 as UInt16)
            record.append(0 as UInt16)
            record.append(Self.externalAttributes)
            record.append(narrow(offsets[index]))
            record.bytes += name
            if !wide.isEmpty {
                record.append(1 as UInt16)
                record.append(UInt16(8 * wide.count))
                for value in wide { record.append(UInt64(value)) }
            }
        }
        let count = entries.count
        let countThreshold = min(zip64Threshold, 0xFFFF)
        if endsWithZip64 {
            let zip64End = centralDirectoryOffset + centralDirectorySize
            record.append(0x0606_4B50 as UInt32)
            // The record's size after this field (4.3.14.1).
            record.append(UInt64(Self.zip64EndSize - 12))
            record.append(Self.madeBy)
            record.append(Self.zip64Version)
            // This disk, the one the central directory starts on.
            record.append(0 as UInt32)
            record.append(0 as UInt32)
            record.append(UInt64(count))
            record.append(UInt64(count))
            record.append(UInt64(centralDirectorySize))
            record.append(UInt64(centralDirectoryOffset))
            record.append(0x0706_4B50 as UInt32)
            // The disk with the ZIP64 end record, where it is, one disk in all.
            record.append(0 as UInt32)
            record.append(UInt64(zip64End))
            record.append(1 as UInt32)
        }
        record.append(0x0605_4B50 as UInt32)
        record.append(0 as UInt16)
        record.append(0 as UInt16)
        record.append(count >= countThreshold ? 0xFFFF : UInt16(count))
        record.append(count >= countThreshold ? 0xFFFF : UInt16(count))
        record.append(narrow(centralDirectorySize))
        record.append(narrow(centralDirectoryOffset))
        // No comment.
        record.append(0 as UInt16)
        return record.bytes
    }
}

/// Bytes of a record, its integers little-endian as ZIP's are.
private struct LittleEndianBytes {
    var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}
