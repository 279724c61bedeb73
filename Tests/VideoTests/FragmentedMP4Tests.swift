import Foundation
import TestSupport
import Testing

@testable import Video

@Suite struct FragmentedMP4Tests {
    func box(_ type: String, _ payload: Int) -> [UInt8] {
        let size = 8 + payload
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8)
            + [UInt8](repeating: 0, count: payload)
    }

    @Test func theFirstFragmentFollowsTheInitialization() {
        let initialization = box("ftyp", 16) + box("moov", 700)
        #expect(FragmentedMP4.firstFragmentOffset(initialization + box("moof", 90) + box("mdat", 5000)) == initialization.count)
        // A 64-bit size is followed.
        let large: [UInt8] = [0, 0, 0, 1] + Array("free".utf8) + [0, 0, 0, 0, 0, 0, 0, 24] + [UInt8](repeating: 0, count: 8)
        #expect(FragmentedMP4.firstFragmentOffset(large + box("moof", 8)) == 24)
    }

    /// From a file only the boxes' headers are read, and the walk is the same.
    @Test func aFilesFirstFragmentIsFoundFromItsBoxHeaders() throws {
        let folder = TemporaryDirectory("fmp4")
        let bytes = box("ftyp", 16) + box("moov", 70_000) + box("moof", 90) + box("mdat", 500_000)
        let path = folder.file("segment.mp4")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let found = try #require(FragmentedMP4.firstFragmentOffset(ofFileAt: path))
        #expect(found.offset == 24 + 70_008)
        #expect(found.size == bytes.count)
        let damaged = folder.file("damaged.mp4")
        #expect(FileManager.default.createFile(atPath: damaged, contents: Data(Array(bytes.prefix(60_000)))))
        #expect(FragmentedMP4.firstFragmentOffset(ofFileAt: damaged) == nil, "a box past the end")
        #expect(FragmentedMP4.firstFragmentOffset(ofFileAt: folder.file("absent.mp4")) == nil)
    }

    @Test(arguments: [
        // No fragment at all; a size past the end; a size smaller than its header; a size that runs to
        // the end (0); a 64-bit size past Int's range.
        [UInt8](repeating: 0, count: 3), [0, 0, 0, 40, 0x66, 0x74, 0x79, 0x70], [0, 0, 0, 4, 0x66, 0x74, 0x79, 0x70, 0, 0, 0, 0],
        [0, 0, 0, 0, 0x6D, 0x64, 0x61, 0x74, 0, 0, 0, 0], [0, 0, 0, 1, 0x66, 0x72, 0x65, 0x65, 0xFF, 0, 0, 0, 0, 0, 0, 0],
    ])
    func boxesThatDoNotAddUpHaveNoFragment(_ bytes: [UInt8]) {
        #expect(FragmentedMP4.firstFragmentOffset(bytes) == nil)
    }
}
