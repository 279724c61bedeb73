import Foundation
import TestSupport
import Testing
import Vocabulary

@testable import Imaging

/// The library's Rotate and Flip, composed with every EXIF orientation the corpus has: a render
/// reoriented in the decode is the upright render turned and mirrored pixel for pixel.
@Suite struct ReorientationTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    /// The upright render's pixels, turned `quarterTurns` clockwise then mirrored, by hand.
    func reoriented(_ rgb: [UInt8], _ size: PixelSize, _ change: Reorientation) -> (PixelSize, [UInt8]) {
        var (pixels, current) = (rgb, size)
        for _ in 0..<change.quarterTurns {
            var turned = [UInt8](repeating: 0, count: pixels.count)
            let next = PixelSize(width: current.height, height: current.width)
            for y in 0..<current.height {
                for x in 0..<current.width {
                    // (x, y) goes to (height - 1 - y, x) when turned clockwise.
                    let target = (x * next.width + (current.height - 1 - y)) * 3
                    let source = (y * current.width + x) * 3
                    turned[target..<target + 3] = pixels[source..<source + 3]
                }
            }
            (pixels, current) = (turned, next)
        }
        if change.mirrored {
            var mirrored = pixels
            for y in 0..<current.height {
                for x in 0..<current.width {
                    let target = (y * current.width + (current.width - 1 - x)) * 3
                    let source = (y * current.width + x) * 3
                    mirrored[target..<target + 3] = pixels[source..<source + 3]
                }
            }
            pixels = mirrored
        }
        return (current, pixels)
    }

    func decoded(_ image: RenderedImage) throws -> (PixelSize, [UInt8]) {
        let directory = TemporaryDirectory()
        let file = directory.file("render.jpg")
        try Data(image.data).write(to: URL(fileURLWithPath: file))
        let pixels = try imaging.pixels(of: file, fittedTo: image.size)
        return (pixels.size, pixels.rgb)
    }

    @Test(arguments: 1...8)
    func everyTurnAndMirrorOfEveryOrientationIsTheUprightImageTurned(orientation: Int) throws {
        let file = Corpus.path("photos/recurser__Landscape_\(orientation).jpg")
        let request = RenderRequest(box: PixelSize(width: 90, height: 90), encoding: .jpeg(quality: 98))
        let upright = try decoded(try #require(imaging.render(file, [request]).first))
        #expect(upright.0 == PixelSize(width: 90, height: 60), "upright first")
        for turns in 0..<4 {
            for mirrored in [false, true] {
                let change = Reorientation(quarterTurns: turns, mirrored: mirrored)
                let (size, pixels) = try decoded(try #require(imaging.render(file, [request], reoriented: change).first))
                let expected = reoriented(upright.1, upright.0, change)
                #expect(size == expected.0 && size == change.size(of: upright.0), "\(change)")
                guard size == expected.0 else { continue }
                let difference = zip(pixels, expected.1).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / pixels.count
                #expect(difference < 4, "orientation \(orientation), \(change): mean difference \(difference)")
            }
        }
    }

    /// Each output is cut from the decode as stored and turned afterwards: a crop in upright
    /// pixels must show the same part of the picture whatever the file's orientation.
    @Test(arguments: ["Landscape", "Portrait"], 2...8)
    func aCropOfAnyOrientationIsTheSamePartOfThePicture(shape: String, orientation: Int) throws {
        let crop =
            shape == "Landscape" ? PixelRect(x: 150, y: 40, width: 1000, height: 700) : PixelRect(x: 40, y: 150, width: 700, height: 1000)
        // Large enough a box for shrink-on-load at 1/2 and a resize after it.
        let request = RenderRequest(box: PixelSize(width: 420, height: 420), crop: crop, encoding: .jpeg(quality: 98))
        let reference = try decoded(try #require(imaging.render(Corpus.path("photos/recurser__\(shape)_1.jpg"), [request]).first))
        let turned = try decoded(try #require(imaging.render(Corpus.path("photos/recurser__\(shape)_\(orientation).jpg"), [request]).first))
        #expect(turned.0 == reference.0)
        guard turned.0 == reference.0 else { return }
        let difference = zip(turned.1, reference.1).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / turned.1.count
        #expect(difference < 8, "orientation \(orientation): mean difference \(difference)")
    }

    @Test func aStoredRectIsTheUprightOneTurnedBack() {
        let stored = PixelSize(width: 40, height: 30)
        let rect = PixelRect(x: 1, y: 2, width: 10, height: 5)
        #expect(Reorientation.storedRect(of: rect, orientation: 1, storedSize: stored) == rect)
        #expect(Reorientation.storedRect(of: rect, orientation: 3, storedSize: stored) == PixelRect(x: 29, y: 23, width: 10, height: 5))
        // Turned a quarter clockwise to be upright: the upright image is 30 wide, 40 high.
        #expect(Reorientation.storedRect(of: rect, orientation: 6, storedSize: stored) == PixelRect(x: 2, y: 19, width: 5, height: 10))
        #expect(Reorientation.storedRect(of: rect, orientation: 8, storedSize: stored) == PixelRect(x: 33, y: 1, width: 5, height: 10))
        #expect(Reorientation.storedRect(of: rect, orientation: 5, storedSize: stored) == PixelRect(x: 2, y: 1, width: 5, height: 10))
    }

    @Test func turnsAreCountedEitherWay() {
        #expect(Reorientation(quarterTurns: -1, mirrored: false) == Reorientation(quarterTurns: 3, mirrored: false))
        #expect(Reorientation(quarterTurns: 6, mirrored: true).quarterTurns == 2)
        #expect(Reorientation.none.composed(withOrientation: 6) == 6)
        #expect(Reorientation(quarterTurns: 1, mirrored: false).composed(withOrientation: 1) == 6)
        #expect(Reorientation(quarterTurns: 3, mirrored: false).composed(withOrientation: 6) == 1, "a turn back undoes a turn")
    }
}
