import Foundation
import TestSupport
import Testing
import Vocabulary

@testable import Imaging

/// Sizes and offsets a file states are anything up to 2⁶⁴ − 1; reading them must never trap.
@Suite struct FileStructureTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    static func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func be64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static let heicType: [UInt8] = be32(24) + Array("ftypheic".utf8) + be32(0) + Array("mif1heic".utf8)

    /// A top-level box of size 1 whose 64-bit size nearly fills `Int`: adding it to the offset
    /// overflowed and took the whole server down.
    @Test(arguments: [UInt64(Int.max) - 8, UInt64(Int.max), UInt64.max, UInt64(Int.max) + 1])
    func aHugeLargesizeIsTruncationNotACrash(largesize: UInt64) throws {
        let bytes = Self.heicType + Self.be32(1) + Array("mdat".utf8) + Self.be64(largesize) + [1, 2, 3, 4]
        #expect(ByteReader.reading(bytes) { FileStructure.problem(in: $0, .heif) } == .truncated)
        let directory = TemporaryDirectory()
        let path = directory.file("crafted.heic")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImagingError(.truncated, "The image file ends before its data does.")) { try imaging.checkStructure(path) }
        #expect(throws: ImagingError.self) {
            _ = try imaging.render(path, [RenderRequest(box: PixelSize(width: 64, height: 64), encoding: .jpeg(quality: 80))])
        }
    }

    @Test func boxesThatFitAreWhole() {
        let bytes =
            Self.heicType + Self.be32(1) + Array("free".utf8) + Self.be64(20) + [0, 0, 0, 0] + Self.be32(12) + Array("skip".utf8) + [
                0, 0, 0, 0,
            ]
        #expect(ByteReader.reading(bytes) { FileStructure.problem(in: $0, .avif) } == nil)
        #expect(ByteReader.reading(Array(bytes.dropLast(2))) { FileStructure.problem(in: $0, .avif) } == .truncated)
    }

    /// Boxes smaller than their own header made libheif 1.19.7 abort (found by `make fuzz`).
    @Test(arguments: [UInt32(2), 5, 7])
    func aBoxSmallerThanItsHeaderIsMalformed(size: UInt32) throws {
        let bytes = Self.heicType + Self.be32(size) + Array("ftyp".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]
        #expect(ByteReader.reading(bytes) { FileStructure.problem(in: $0, .heif) } == .malformed)
        let directory = TemporaryDirectory()
        let path = directory.file("crafted.heic")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImagingError(.corrupt, "The image file is damaged: its structure is broken.")) { try imaging.checkStructure(path) }
        let large = Self.heicType + Self.be32(1) + Array("mdat".utf8) + Self.be64(15) + [0]
        #expect(ByteReader.reading(large) { FileStructure.problem(in: $0, .avif) } == .malformed)
    }

    @Test(arguments: [UInt32.max, UInt32(Int32.max), 0xFFFF_FFF0])
    func aPNGChunkLengthNearTheLimitIsTruncation(length: UInt32) {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.be32(length) + Array("IDAT".utf8) + [0, 0, 0]
        #expect(ByteReader.reading(png) { FileStructure.problem(in: $0, .png) } == .truncated)
    }

    @Test func aGIFWhoseBlocksRunPastTheEndIsTruncated() {
        // A global colour table of 768 bytes announced, and none there.
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0xF7, 0, 0]
        #expect(ByteReader.reading(gif) { FileStructure.problem(in: $0, .gif) } == .truncated)
        let whole = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        #expect(ByteReader.reading(whole) { FileStructure.problem(in: $0, .gif) } == nil)
        #expect(ByteReader.reading(Array(whole.dropLast(3))) { FileStructure.problem(in: $0, .gif) } == .truncated)
    }

    @Test func aWebPCutShortIsTruncated() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/pillow__flower.webp"))))
        #expect(ByteReader.reading(whole) { FileStructure.problem(in: $0, .webp) } == nil)
        #expect(ByteReader.reading(Array(whole.prefix(whole.count / 2))) { FileStructure.problem(in: $0, .webp) } == .truncated)
        #expect(ByteReader.reading(Array(whole.prefix(10))) { FileStructure.problem(in: $0, .webp) } == .truncated)
    }

    @Test func offsetsNeverOverflow() {
        ByteReader.reading([1, 2, 3, 4, 5, 6, 7, 8]) { reader in
            #expect(reader.offset(4, plus: 4) == 8)
            #expect(reader.offset(4, plus: 5) == nil)
            #expect(reader.offset(Int.max, plus: 1) == nil)
            #expect(reader.offset(1, plus: Int.max) == nil)
            #expect(reader.offset(-1, plus: 2) == nil)
            #expect(reader.offset(0, plus: UInt64.max) == nil)
            #expect(reader.integer(UInt32.self, at: 4) == 0x0506_0708)
            #expect(reader.integer(UInt32.self, at: 4, bigEndian: false) == 0x0807_0605)
            #expect(reader.integer(UInt32.self, at: 5) == nil)
            #expect(reader.integer(UInt64.self, at: Int.max) == nil)
            #expect(reader.byte(at: 8) == nil)
            #expect(reader.fourCC(at: 0) == nil)
        }
    }
}
