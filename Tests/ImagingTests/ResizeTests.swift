import Foundation
import Imaging
import TestSupport
import Testing
import Vocabulary

/// A render's downscale of a decode in memory is CResize's lanczos3, not libvips': it must give
/// what libvips' resize gives, within rounding, whatever the bands, region and sizes.
@Suite struct ResizeTests {
    /// Decodes at half size, as a display render of these photos does.
    static func decoded(_ photo: String) throws -> (width: Int, height: Int, bands: Int, pixels: [UInt8]) {
        let decoded = JPEGDecoder.pixels(Corpus.path(photo), shrink: 2, halvesFrom: 0)
        try #require(!decoded.pixels.isEmpty)
        return (decoded.width, decoded.height, decoded.bands, decoded.pixels)
    }

    static func differences(_ left: [UInt8], _ right: [UInt8]) -> (mean: Double, largest: Int) {
        var total = 0
        var largest = 0
        for (a, b) in zip(left, right) {
            let difference = abs(Int(a) - Int(b))
            total += difference
            largest = max(largest, difference)
        }
        return (Double(total) / Double(max(left.count, 1)), largest)
    }

    @Test(arguments: [
        ("photos/androidx-media__ultraHDR.jpg", PixelSize(width: 1170, height: 1554)),
        ("photos/lychee__aarhus.jpg", PixelSize(width: 1170, height: 877)),
        ("photos/exifsamples__jolla.jpg", PixelSize(width: 256, height: 192)),
        // Not in proportion, and sizes with no common factor with the source's.
        ("photos/exifsamples__jolla.jpg", PixelSize(width: 1001, height: 333)),
    ])
    func aDownscaleIsLibvipsLanczos3WithinRounding(photo: String, size: PixelSize) throws {
        let source = try Self.decoded(photo)
        let ours = try #require(
            Resizer.resized(source.pixels, width: source.width, height: source.height, bands: source.bands, to: size, by: .render))
        let theirs = try #require(
            Resizer.resized(source.pixels, width: source.width, height: source.height, bands: source.bands, to: size, by: .libvips))
        #expect(ours.count == size.width * size.height * source.bands && ours.count == theirs.count)
        let (mean, largest) = Self.differences(ours, theirs)
        // libvips rounds its weights to 12 bits, CResize to 14; edges are renormalised, not
        // extended, so the outermost pixels may differ a little more.
        #expect(mean < 0.3, "\(photo): mean difference \(mean)")
        #expect(largest <= 12, "\(photo): largest difference \(largest)")
        #expect(ours != theirs, "the render's own resize ran, not libvips'")
    }

    @Test func aFlatPictureStaysFlat() throws {
        let pixels = [UInt8](repeating: 0, count: 640 * 480).flatMap { _ in [200, 17, 255] as [UInt8] }
        let resized = try #require(
            Resizer.resized(pixels, width: 640, height: 480, bands: 3, to: PixelSize(width: 333, height: 101), by: .render))
        #expect(resized == [UInt8](repeating: 0, count: 333 * 101).flatMap { _ in [200, 17, 255] as [UInt8] })
    }

    @Test func aRegionIsResizedAsItsPixelsAlone() throws {
        let source = try Self.decoded("photos/exifsamples__jolla.jpg")
        let region = PixelRect(x: 101, y: 57, width: 700, height: 500)
        var cut: [UInt8] = []
        for row in region.y..<region.y + region.height {
            let start = (row * source.width + region.x) * source.bands
            cut += source.pixels[start..<start + region.width * source.bands]
        }
        let size = PixelSize(width: 300, height: 200)
        let fromRegion = Resizer.resized(
            source.pixels, width: source.width, height: source.height, bands: source.bands, region: region, to: size, by: .render)
        let fromCut = Resizer.resized(cut, width: region.width, height: region.height, bands: source.bands, to: size, by: .render)
        #expect(fromRegion != nil && fromRegion == fromCut)
    }

    /// One band and four take other code paths than three (scalar, and another shuffle); every
    /// channel is resized alike, so a channel comes out the same whichever way it went.
    @Test func everyBandCountGivesTheSameChannels() throws {
        let source = try Self.decoded("photos/exifsamples__jolla.jpg")
        let count = source.width * source.height
        let size = PixelSize(width: 407, height: 311)
        var green = [UInt8](repeating: 0, count: count)
        var withFourth = [UInt8](repeating: 0, count: count * 4)
        for index in 0..<count {
            green[index] = source.pixels[index * 3 + 1]
            for band in 0..<3 { withFourth[index * 4 + band] = source.pixels[index * 3 + band] }
            withFourth[index * 4 + 3] = source.pixels[index * 3]
        }
        let three = try #require(
            Resizer.resized(source.pixels, width: source.width, height: source.height, bands: 3, to: size, by: .render))
        let one = try #require(Resizer.resized(green, width: source.width, height: source.height, bands: 1, to: size, by: .render))
        let four = try #require(Resizer.resized(withFourth, width: source.width, height: source.height, bands: 4, to: size, by: .render))
        var mismatches = 0
        for index in 0..<size.width * size.height {
            let rgb = three[index * 3..<index * 3 + 3]
            if one[index] != rgb[index * 3 + 1] || !four[index * 4..<index * 4 + 3].elementsEqual(rgb)
                || four[index * 4 + 3] != rgb[index * 3]
            {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    /// A decode in one go is resized on a second thread as its rows come, through a ring that
    /// holds only the rows still read; a decode in halves once both are done, or (a large
    /// picture) as the upper half is decoded: every way, the pixels a resize of the whole
    /// decode gives. The sizes take the ring round many times, keep
    /// a side (rows read one at a time), and shrink by a lot (a ring of many rows).
    @Test(arguments: [
        "photos/lychee__aarhus.jpg", "photos/lychee__train.jpg", "photos/exifsamples__jolla.jpg",
        "photos/sharp__Channel_digital_image_CMYK_color.jpg",
    ])
    func aDecodeResizedAsItGoesIsTheDecodeResized(photo: String) throws {
        let source = try Self.decoded(photo)
        // Train's and the CMYK photo's restart markers cut them.
        let cut = JPEGDecoder.lowerHalf(of: try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path(photo))))) != nil
        let sizes = [
            PixelSize(width: 1170, height: 877), PixelSize(width: 256, height: 100),
            PixelSize(width: source.width / 2, height: source.height), PixelSize(width: 7, height: 5),
        ].map { PixelSize(width: min($0.width, source.width), height: min($0.height, source.height)) }
            .filter { $0.width < source.width || $0.height < source.height }
        // In one go; in halves resized once decoded; in halves resized as the upper one is decoded.
        for size in sizes {
            for (halvesFrom, halvesStreamedFrom) in [(0, 0), (1, Int.max), (1, 0)] {
                let streamed = JPEGDecoder.pixels(
                    Corpus.path(photo), shrink: 2, halvesFrom: halvesFrom, resizedTo: size, halvesStreamedFrom: halvesStreamedFrom)
                let afterwards = Resizer.resized(
                    source.pixels, width: source.width, height: source.height, bands: source.bands, to: size, by: .render)
                #expect(streamed.verdict == "none" && streamed.width == size.width && streamed.height == size.height)
                #expect(streamed.inHalves == (halvesFrom == 1 && cut))
                #expect(
                    !streamed.pixels.isEmpty && streamed.pixels == afterwards,
                    "\(photo) to \(size), halves from \(halvesFrom), streamed from \(halvesStreamedFrom)")
            }
        }
    }

    /// A decode that stops at damage stops its resize too, and gives no pixels.
    @Test func aDamagedDecodeGivesNoResizedPixels() throws {
        let directory = TemporaryDirectory()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/lychee__aarhus.jpg"))))
        let truncated = directory.file("truncated.jpg")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: truncated))
        let result = JPEGDecoder.pixels(truncated, shrink: 2, halvesFrom: 0, resizedTo: PixelSize(width: 1170, height: 877))
        #expect(result.verdict == "truncated" && result.pixels.isEmpty)
    }

    /// A size larger than the decode is not a resize the decoder does: its pixels come as decoded.
    @Test func aDecodeAskedToGrowComesAsDecoded() throws {
        let source = try Self.decoded("photos/exifsamples__jolla.jpg")
        let grown = JPEGDecoder.pixels(
            Corpus.path("photos/exifsamples__jolla.jpg"), shrink: 2, halvesFrom: 0,
            resizedTo: PixelSize(width: source.width + 1, height: source.height))
        #expect(grown.width == source.width && grown.pixels == source.pixels)
    }

    /// Only downscales are CResize's: a side that grows is libvips' to resize.
    @Test func anUpscaleIsLibvipsOwn() throws {
        let source = try Self.decoded("photos/exifsamples__jolla.jpg")
        let size = PixelSize(width: source.width + 10, height: source.height / 2)
        let ours = Resizer.resized(source.pixels, width: source.width, height: source.height, bands: 3, to: size, by: .render)
        let theirs = Resizer.resized(source.pixels, width: source.width, height: source.height, bands: 3, to: size, by: .libvips)
        #expect(ours != nil && ours == theirs)
    }
}
