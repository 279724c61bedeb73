import Imaging
import TestSupport
import Testing

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

    /// Only downscales are CResize's: a side that grows is libvips' to resize.
    @Test func anUpscaleIsLibvipsOwn() throws {
        let source = try Self.decoded("photos/exifsamples__jolla.jpg")
        let size = PixelSize(width: source.width + 10, height: source.height / 2)
        let ours = Resizer.resized(source.pixels, width: source.width, height: source.height, bands: 3, to: size, by: .render)
        let theirs = Resizer.resized(source.pixels, width: source.width, height: source.height, bands: 3, to: size, by: .libvips)
        #expect(ours != nil && ours == theirs)
    }
}
