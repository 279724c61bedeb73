import Foundation
import TestSupport
import Testing

@testable import PhotoLibrary

/// The ZIP layout's records, field by field as APPNOTE.TXT 6.3.10 lists them, for an archive
/// past 4 GiB (which ZIP64 must carry) without writing gigabytes; the file times; the names.
@Suite struct ZipLayoutTests {
    /// A field as APPNOTE writes it: little-endian, of its type's width.
    static func field<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static let gib = 1 << 30
    /// 2024-05-01 12:34:56: (2024 - 1980) << 9 | 5 << 5 | 1, and 12 << 11 | 34 << 5 | 56 / 2.
    static let may1 = DOSTimestamp(year: 2024, month: 5, day: 1, hour: 12, minute: 34, second: 56)
    static let (may1Date, may1Time): (UInt16, UInt16) = (0x58A1, 0x645C)

    /// A 5 GiB movie (sizes over 32 bits), then two small files that start past 4 GiB (offsets
    /// over 32 bits), so the central directory does too; the last name is not ASCII.
    static let entries = [
        ZipLayout.Entry(name: "big.mov", size: 5 * gib, modified: may1),
        ZipLayout.Entry(name: "small.jpg", size: 10, modified: may1),
        ZipLayout.Entry(name: "é.txt", size: 3, modified: may1),
    ]

    @Test func anArchivePastFourGiBHasZIP64RecordsFieldByField() {
        let layout = ZipLayout(Self.entries)
        #expect((Self.may1.date, Self.may1.time) == (Self.may1Date, Self.may1Time))
        // Local header 30 + name + ZIP64 extra 20, the bytes, a ZIP64 data descriptor 24.
        let small = 30 + 7 + 20 + 5 * Self.gib + 24
        let third = small + 30 + 9 + 10 + 16
        let directory = third + 30 + 6 + 3 + 16
        #expect(layout.offsets == [0, small, third])
        #expect(layout.centralDirectoryOffset == directory)
        // Central headers 46 + name + ZIP64 extra: both sizes (4 + 16), then the offset alone (4 + 8) twice.
        #expect(layout.centralDirectorySize == (46 + 7 + 20) + (46 + 9 + 12) + (46 + 6 + 12))
        let zip64End = directory + layout.centralDirectorySize
        #expect(layout.size == zip64End + 56 + 20 + 22)

        let time = Self.field(Self.may1Time) + Self.field(Self.may1Date)
        let flags = Self.field(0x0808 as UInt16)
        let stored = Self.field(0 as UInt16)
        // 4.3.7: signature, version needed 4.5, flags, method, time, date, CRC 0 (bit 3), both
        // sizes 0xFFFFFFFF with the ZIP64 extra field (4.5.3: tag 1, 16 bytes, both sizes).
        #expect(
            layout.localHeader(0)
                == Self.field(0x0403_4B50 as UInt32) + Self.field(45 as UInt16) + flags + stored + time + Self.field(0 as UInt32)
                + Self.field(UInt32.max) + Self.field(UInt32.max) + Self.field(7 as UInt16) + Self.field(20 as UInt16)
                + Array("big.mov".utf8)
                + Self.field(1 as UInt16) + Self.field(16 as UInt16) + Self.field(UInt64(5 * Self.gib)) + Self.field(UInt64(5 * Self.gib)))
        // Sizes that fit stay 0 as bit 3 asks, and no extra field; 4.5 still, for the offset.
        #expect(
            layout.localHeader(1)
                == Self.field(0x0403_4B50 as UInt32) + Self.field(45 as UInt16) + flags + stored + time + Self.field(0 as UInt32)
                + Self.field(0 as UInt32) + Self.field(0 as UInt32) + Self.field(9 as UInt16) + Self.field(0 as UInt16)
                + Array("small.jpg".utf8))
        // 4.3.9: 8-byte sizes after a ZIP64 local header (4.3.9.2), 4-byte ones otherwise.
        #expect(
            layout.dataDescriptor(0, crc: 0x1234_5678)
                == Self.field(0x0807_4B50 as UInt32) + Self.field(0x1234_5678 as UInt32) + Self.field(UInt64(5 * Self.gib))
                + Self.field(UInt64(5 * Self.gib)))
        #expect(
            layout.dataDescriptor(1, crc: 7) == Self.field(0x0807_4B50 as UInt32) + Self.field(7 as UInt32) + Self.field(10 as UInt32)
                + Self.field(10 as UInt32))

        let crcs: [UInt32] = [0xAAAA_AAAA, 0xBBBB_BBBB, 0xCCCC_CCCC]
        // 4.3.12: made by Unix (3) at 4.5, needed, flags, method, time, date, CRC, sizes, name
        // length, extra length, comment length, disk, internal and external attributes (a
        // regular file, rw-r--r--), offset, name, extra.
        func central(_ index: Int, _ name: String, sizes: UInt32, offset: UInt32, extra: [UInt64]) -> [UInt8] {
            Self.field(0x0201_4B50 as UInt32) + Self.field(0x032D as UInt16) + Self.field(45 as UInt16) + flags + stored + time
                + Self.field(crcs[index]) + Self.field(sizes) + Self.field(sizes) + Self.field(UInt16(name.utf8.count))
                + Self.field(UInt16(4 + 8 * extra.count)) + Self.field(0 as UInt16) + Self.field(0 as UInt16) + Self.field(0 as UInt16)
                + Self.field(0x81A4_0000 as UInt32) + Self.field(offset) + Array(name.utf8) + Self.field(1 as UInt16)
                + Self.field(UInt16(8 * extra.count)) + extra.flatMap { Self.field($0) }
        }
        let expected =
            central(0, "big.mov", sizes: .max, offset: 0, extra: [UInt64(5 * Self.gib), UInt64(5 * Self.gib)])
            + central(1, "small.jpg", sizes: 10, offset: .max, extra: [UInt64(small)])
            + central(2, "é.txt", sizes: 3, offset: .max, extra: [UInt64(third)])
            // 4.3.14: signature, the size of what follows (44), made by, needed, this disk, the
            // directory's disk, entries on this disk and in all, the directory's size and offset.
            + Self.field(0x0606_4B50 as UInt32) + Self.field(44 as UInt64) + Self.field(0x032D as UInt16) + Self.field(45 as UInt16)
            + Self.field(0 as UInt32) + Self.field(0 as UInt32) + Self.field(3 as UInt64) + Self.field(3 as UInt64)
            + Self.field(UInt64(layout.centralDirectorySize)) + Self.field(UInt64(directory))
            // 4.3.15: signature, the disk with the ZIP64 end record, its offset, one disk.
            + Self.field(0x0706_4B50 as UInt32) + Self.field(0 as UInt32) + Self.field(UInt64(zip64End)) + Self.field(1 as UInt32)
            // 4.3.16: what fits stays (3 entries, the directory's size), its offset is 0xFFFFFFFF.
            + Self.field(0x0605_4B50 as UInt32) + Self.field(0 as UInt16) + Self.field(0 as UInt16) + Self.field(3 as UInt16)
            + Self.field(3 as UInt16) + Self.field(UInt32(layout.centralDirectorySize)) + Self.field(UInt32.max) + Self.field(0 as UInt16)
        #expect(layout.trailer(crcs: crcs) == expected)
    }

    /// The same archive as a sparse file (its 5 GiB of zeros take no disk), read by Python's
    /// zipfile: the ZIP64 end records, the sizes and offsets in the extra fields, and the small
    /// files' bytes read where their local headers say, with their CRCs.
    @Test func pythonReadsTheArchivePastFourGiB() async throws {
        let layout = ZipLayout(Self.entries)
        let contents: [[UInt8]] = [[], Array("0123456789".utf8), Array("abc".utf8)]
        let crcs = contents.map { bytes in
            var crc = CRC32()
            bytes.withUnsafeBytes { crc.update($0) }
            return crc.value
        }
        let folder = TemporaryDirectory("zip64")
        let path = folder.file("big.zip")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.truncate(atOffset: UInt64(layout.size))
        for (index, entry) in layout.entries.enumerated() {
            try file.seek(toOffset: UInt64(layout.offsets[index]))
            try file.write(contentsOf: layout.localHeader(index) + contents[index])
            try file.seek(toOffset: UInt64(layout.offsets[index] + layout.localHeader(index).count + entry.size))
            try file.write(contentsOf: layout.dataDescriptor(index, crc: crcs[index]))
        }
        try file.seek(toOffset: UInt64(layout.centralDirectoryOffset))
        try file.write(contentsOf: layout.trailer(crcs: crcs))
        try file.close()

        let script = """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as archive:
                print(json.dumps([[i.filename, i.file_size, i.header_offset, i.CRC, list(i.date_time),
                                   archive.read(i).decode() if i.file_size < 100 else None] for i in archive.infolist()]))
            """
        let read = try await Executable.run(program: "/usr/bin/python3", ["-c", script, path])
        #expect(read.status == 0, "\(read.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: read.output) as? [[Any]])
        #expect(listed.map { $0[0] as? String } == ["big.mov", "small.jpg", "é.txt"])
        #expect(listed.map { $0[1] as? Int } == [5 * Self.gib, 10, 3])
        #expect(listed.map { $0[2] as? Int } == layout.offsets)
        #expect(listed.map { ($0[3] as? NSNumber)?.uint32Value } == crcs)
        #expect(listed.allSatisfy { $0[4] as? [Int] == [2024, 5, 1, 12, 34, 56] })
        #expect(listed.map { $0[5] as? String } == [nil, "0123456789", "abc"])
    }

    /// 65,535 files or more take ZIP64's end records, even when every size and offset fits.
    @Test func countsPastSixteenBitsEndWithZIP64() {
        let few = ZipLayout(Array(repeating: ZipLayout.Entry(name: "a", size: 1, modified: .earliest), count: 65_534))
        let many = ZipLayout(Array(repeating: ZipLayout.Entry(name: "a", size: 1, modified: .earliest), count: 65_535))
        #expect(few.size == few.centralDirectoryOffset + few.centralDirectorySize + 22)
        #expect(many.size == many.centralDirectoryOffset + many.centralDirectorySize + 56 + 20 + 22)
        let end = Array(many.trailer(crcs: Array(repeating: 0, count: 65_535)).suffix(22))
        #expect(Array(end[8..<12]) == Self.field(UInt16.max) + Self.field(UInt16.max))
    }

    @Test func fileTimesAreTheClockTimeTheDateStates() {
        #expect(DOSTimestamp(iso: "2024-05-01T12:34:56") == Self.may1)
        #expect(DOSTimestamp(iso: "2024-05-01T12:34:57+09:00") == Self.may1, "two-second steps; the zone is the file's own")
        #expect(DOSTimestamp(iso: "2024-05-01T12:34:56.250Z") == Self.may1)
        #expect(DOSTimestamp(iso: "2016-12-31T23:59:60") == DOSTimestamp(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(DOSTimestamp(iso: "1970-01-01T00:00:00Z") == .earliest, "DOS time starts in 1980")
        #expect(DOSTimestamp(iso: "2200-01-01T00:00:00") == .latest)
        #expect(DOSTimestamp.latest.date == 127 << 9 | 12 << 5 | 31)
        for bad in ["", "2024-05-01", "2024-13-01T00:00:00", "2024-05-01 12:34:56", "2024-05-01T24:00:00", "+024-05-01T12:34:56"] {
            #expect(DOSTimestamp(iso: bad) == nil, "\(bad)")
        }
    }

    @Test func namesAreCleanAndUniqueAsFileSystemsCompareThem() {
        var names = ArchiveNames()
        let given: [(String, AssetFormat)] = [
            ("IMG_0001.JPG", .image(.jpeg)), ("IMG_0001.JPG", .image(.jpeg)), ("img_0001.jpg", .image(.jpeg)),
            ("IMG_0001 (2).JPG", .image(.jpeg)), ("Caf\u{E9}.heic", .image(.heif)), ("Cafe\u{301}.heic", .image(.heif)),
            ("a\\b:c*?.png", .image(.png)), (" ..", .image(.jpeg)), ("..", .image(.jpeg)), (" spaced .mov ", .movie(.mp4)),
        ]
        let fallback = "0123456789abcdef0123456789abcdef.jpg"
        #expect(
            given.map { names.name($0, format: $1, otherwise: fallback) } == [
                "IMG_0001.JPG", "IMG_0001 (2).JPG", "img_0001 (3).jpg", "IMG_0001 (2) (2).JPG", "Caf\u{E9}.heic", "Cafe\u{301} (2).heic",
                "a_b_c__.png", "0123456789abcdef0123456789abcdef.jpg", "0123456789abcdef0123456789abcdef (2).jpg", "spaced .mov",
            ])
        let formats: [(AssetFormat, String)] = [
            (.image(.heif), "heic"), (.image(.png), "png"), (.image(.tiff), "tif"), (.movie(.mp4), "mp4"), (.movie(.matroska), "webm"),
            (.movie(.avi), "avi"),
        ]
        #expect(formats.allSatisfy { $0.0.fileExtension == $0.1 })
        #expect(names.name(nil, format: .image(.heif), otherwise: "id.heic") == "id.heic")
        let long = String(repeating: "写", count: 100) + ".jpg"
        let first = names.name(long, format: .image(.jpeg), otherwise: fallback)
        let second = names.name(long, format: .image(.jpeg), otherwise: fallback)
        #expect(first.utf8.count <= 255 && first.hasSuffix("写.jpg"))
        #expect(second.utf8.count <= 255 && second.hasSuffix("写 (2).jpg"))
    }

    /// A name made a file that is the same on Windows, macOS and Linux, and that opens as what
    /// it is: no device names, no dots or spaces at its ends, no text turned around, and its
    /// format's extension after any other.
    @Test func namesAreSafeOnEveryDesktop() {
        let cases: [(String, AssetFormat, String?)] = [
            ("nul", .image(.jpeg), "_nul.jpg"), ("NUL.jpg", .image(.jpeg), "_NUL.jpg"), ("com1.JPG", .image(.jpeg), "_com1.JPG"),
            ("Lpt\u{B9}.png", .image(.png), "_Lpt\u{B9}.png"), ("con.tar.jpg", .image(.jpeg), "_con.tar.jpg"),
            ("console.jpg", .image(.jpeg), "console.jpg"), ("COM10.jpg", .image(.jpeg), "COM10.jpg"),
            (".exe", .image(.jpeg), "exe.jpg"), ("invoice.exe", .image(.jpeg), "invoice.exe.jpg"),
            ("photo\u{202E}gpj.exe", .image(.jpeg), "photo_gpj.exe.jpg"), ("clip\u{2067}.mov", .movie(.mp4), "clip_.mov"),
            ("trip.jpg. . .", .image(.jpeg), "trip.jpg"), ("...hidden.heic", .image(.heif), "hidden.heic"),
            ("IMG_0001.MOV", .movie(.mp4), "IMG_0001.MOV"), ("recording.webm", .movie(.matroska), "recording.webm"),
            ("scan.DNG", .image(.tiff), "scan.DNG"), ("picture", .image(.webp), "picture.webp"), (" . ", .image(.jpeg), nil),
        ]
        for (given, format, expected) in cases {
            #expect(PortableFilename.forDesktop(given, format: format) == expected, "\(given.debugDescription)")
        }
    }

    /// What the library keeps of a name a client gave: the last part of any path, without
    /// control or direction characters; nothing for a name that is only dots.
    @Test func keptNamesAreTheLastPartWithoutInvisibleCharacters() {
        let cases: [(String, String?)] = [
            ("IMG_0001.JPG", "IMG_0001.JPG"), ("C:\\Users\\ann\\Pictures\\beach.jpg", "beach.jpg"), ("../../etc/passwd", "passwd"),
            (".", nil), ("..", nil), ("a/..", nil), ("folder\\", nil), ("", nil), ("  ", nil),
            ("photo\u{202E}gpj.exe", "photogpj.exe"), ("tab\tname\u{0}.png", "tabname.png"), (" spaced .mov ", "spaced .mov"),
            ("a:b.jpg", "a:b.jpg"),
        ]
        for (given, expected) in cases {
            #expect(PortableFilename.kept(given) == expected, "\(given.debugDescription)")
        }
        let long = PortableFilename.kept(String(repeating: "é", count: 200) + ".jpg")
        #expect(long.map { $0.utf8.count <= 255 && $0.hasSuffix("é.jpg") } == true)
    }
}
