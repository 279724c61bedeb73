import Foundation
import Imaging
import TestSupport
import Testing
import Vocabulary

/// A JPEG with restart markers is decoded in two halves at once: the pixels are the ones a
/// decode in one go gives, but for the rows beside the cut, where the lower half's chroma
/// starts without the rows above it; and anything that does not add up is decoded in one go.
@Suite struct JPEGHalvesTests {
    static let withRestarts = [
        "photos/lychee__train.jpg", "photos/exifsamples__iphone_hdr_YES.jpg", "photos/exifsamples__42_IndexError.jpg",
    ]

    @Test(arguments: withRestarts)
    func theHalvesGiveTheSamePixelsAsOneGo(photo: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path(photo))))
        let cut = try #require(JPEGDecoder.lowerHalf(of: bytes)).rowsBefore
        for shrink in [1, 2, 8] {
            let halves = JPEGDecoder.pixels(Corpus.path(photo), shrink: shrink, halvesFrom: 1)
            let whole = JPEGDecoder.pixels(Corpus.path(photo), shrink: shrink, halvesFrom: 0)
            #expect(halves.verdict == "none" && whole.verdict == "none")
            #expect(halves.inHalves && !whole.inHalves)
            #expect(halves.width == whole.width && halves.height == whole.height && halves.bands == whole.bands)
            #expect(halves.pixels.count == whole.pixels.count && !whole.pixels.isEmpty)
            guard halves.pixels.count == whole.pixels.count, !whole.pixels.isEmpty else { continue }
            let stride = whole.width * whole.bands
            // The MCU rows are 8 or 16 pixels tall: the cut is at a multiple of 8 / shrink rows.
            let seam = Set(stride > 0 ? (0..<whole.height).filter { row in Self.isBesideTheCut(row, cut, shrink, photo) } : [])
            var differentRows: [Int] = []
            for row in 0..<whole.height where !seam.contains(row) {
                let range = row * stride..<(row + 1) * stride
                if !halves.pixels[range].elementsEqual(whole.pixels[range]) { differentRows.append(row) }
            }
            #expect(differentRows.isEmpty, "\(photo) at 1/\(shrink): rows \(differentRows.prefix(5)) differ")
            #expect(meanDifference(halves.pixels, whole.pixels) < 0.1)
        }
    }

    /// The cut is where a restart interval ends with an MCU row; the two rows of the picture on
    /// either side of it may differ by the chroma that is upsampled across it.
    static func isBesideTheCut(_ row: Int, _ cut: Int, _ shrink: Int, _ photo: String) -> Bool {
        let mcuHeight = photo.contains("42_IndexError") ? 8 : 16
        let seam = cut * mcuHeight / shrink
        return abs(row - seam) <= 1 || row == seam - 2
    }

    @Test func aFileWithoutRestartsOrWithDamageIsDecodedInOneGo() throws {
        let aarhus = try Self.bytes("photos/lychee__aarhus.jpg")
        #expect(JPEGDecoder.lowerHalf(of: aarhus) == nil, "no restart markers")
        #expect(!JPEGDecoder.mayBeCut(start: Array(aarhus.prefix(64 * 1024))), "as its first 64 KB show")
        let train = try Self.bytes("photos/lychee__train.jpg")
        let (cut, lower) = try #require(JPEGDecoder.lowerHalf(of: train))
        #expect(JPEGDecoder.mayBeCut(start: Array(train.prefix(64 * 1024))))
        #expect(JPEGDecoder.mayBeCut(start: Array(train.prefix(100))), "too little to tell")
        #expect(cut > 0 && lower.count < train.count && lower.count > train.count / 4)
        #expect(JPEGDecoder.lowerHalf(of: Array(train.prefix(train.count * 4 / 5))) == nil, "a truncated file")
        // A restart marker out of its order.
        var misnumbered = train
        let marker = try #require((train.count / 3..<train.count - 1).first { train[$0] == 0xFF && (0xD0...0xD7).contains(train[$0 + 1]) })
        misnumbered[marker + 1] = 0xD0 + (misnumbered[marker + 1] - 0xD0 + 3) % 8
        #expect(JPEGDecoder.lowerHalf(of: misnumbered) == nil)
        // A marker dropped: one interval fewer than the frame calls for.
        var dropped = train
        dropped.removeSubrange(marker..<marker + 2)
        #expect(JPEGDecoder.lowerHalf(of: dropped) == nil)
    }

    /// Garbage in the lower half's data is damage, judged as a decode in one go judges it, and
    /// a render that refuses damage refuses it.
    @Test func damageInTheLowerHalfIsFound() throws {
        let directory = TemporaryDirectory()
        var train = try Self.bytes("photos/lychee__train.jpg")
        // Past a restart marker three quarters of the way through the scan.
        let markers = (0..<train.count - 1).filter { train[$0] == 0xFF && (0xD0...0xD7).contains(train[$0 + 1]) }
        let at = markers[markers.count * 3 / 4] + 2
        // Runs of ones are no Huffman code.
        for index in at..<at + 600 where train[index] != 0xFF && train[index - 1] != 0xFF { train[index] = 0xFE }
        let path = directory.file("damaged.jpg")
        try Data(train).write(to: URL(fileURLWithPath: path))
        let halves = JPEGDecoder.pixels(path, shrink: 2, halvesFrom: 1)
        let whole = JPEGDecoder.pixels(path, shrink: 2, halvesFrom: 0)
        #expect(["truncated", "corrupt"].contains(whole.verdict), "damage, not harmless: \(whole.verdict)")
        #expect(halves.verdict == whole.verdict)
        #expect(halves.pixels.count == 0, "no pixels for a refused decode")
        let imaging = try Imaging()
        #expect(throws: ImagingError.self) {
            _ = try imaging.render(
                path, [RenderRequest(box: PixelSize(width: 1000, height: 1000), encoding: .jpeg(quality: 80))], damage: .refuseDamage)
        }
    }

    /// A decode plans the cut and renumbers the lower half's markers as it reads the file, a piece
    /// at a time: whatever the pieces, and wherever a marker falls across two of them, the lower
    /// half is the one planned from the whole file in memory.
    @Test(arguments: withRestarts)
    func theLowerHalfReadInPiecesIsTheOneReadWhole(photo: String) throws {
        let bytes = try Self.bytes(photo)
        let whole = try #require(JPEGDecoder.lowerHalf(of: bytes))
        for piece in [1, 2, 3, 4095, 65_537] {
            let pieces = JPEGDecoder.lowerHalf(of: bytes, inPiecesOf: piece)
            #expect(pieces?.rowsBefore == whole.rowsBefore && pieces?.jpeg == whole.jpeg, "\(photo) in pieces of \(piece)")
        }
        var damaged = bytes
        damaged[damaged.count * 2 / 3] = 0xFF
        damaged[damaged.count * 2 / 3 + 1] = 0xC4
        #expect(JPEGDecoder.lowerHalf(of: damaged) == nil && JPEGDecoder.lowerHalf(of: damaged, inPiecesOf: 4095) == nil)
    }

    /// Metadata can push the scan past the first 64 KB of a file, where the decode first looks
    /// for it: it reads on, up to a megabyte, and such a file is cut too. Past that it is decoded
    /// in one go, to the same pixels.
    @Test func aScanPastTheFileStartIsFoundUpToAMegabyte() throws {
        let directory = TemporaryDirectory()
        let train = try Self.bytes("photos/lychee__train.jpg")
        let expected = JPEGDecoder.pixels(Corpus.path("photos/lychee__train.jpg"), shrink: 8, halvesFrom: 1)
        for (segments, cut) in [(5, true), (20, false)] {
            // APP9 segments nobody reads, 60,000 bytes each, just after SOI.
            let segment: [UInt8] = [0xFF, 0xE9, 0xEA, 0x60] + [UInt8](repeating: 0x41, count: 60_000 - 2)
            let padded = Array(train.prefix(2)) + Array([[UInt8]](repeating: segment, count: segments).joined()) + train.dropFirst(2)
            let path = directory.file("padded-\(segments).jpg")
            try Data(padded).write(to: URL(fileURLWithPath: path))
            let decoded = JPEGDecoder.pixels(path, shrink: 8, halvesFrom: 1)
            #expect(decoded.verdict == "none" && decoded.inHalves == cut, "\(segments) segments of metadata")
            if cut { #expect(decoded.pixels == expected.pixels) }
        }
    }

    static func bytes(_ photo: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path(photo))))
    }
}
