import Imaging
import TestSupport
import Testing
import Vocabulary

/// The recurser orientation images show their own number when upright. Each one, turned upright,
/// must look like the orientation-1 image, and unlike that image turned upside down.
@Suite struct OrientationTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    @Test(arguments: ["Landscape", "Portrait"], Array(0...8))
    func everyOrientationComesOutUpright(shape: String, orientation: Int) throws {
        guard !(shape == "Portrait" && orientation == 0) else { return }
        let box = PixelSize(width: 60, height: 60)
        let reference = try imaging.pixels(of: Corpus.path("photos/recurser__\(shape)_1.jpg"), fittedTo: box)
        let info = try imaging.probe(Corpus.path("photos/recurser__\(shape)_\(orientation).jpg"))
        #expect(info.orientation == max(orientation, 1))
        #expect(shape == "Landscape" ? info.width == 1800 && info.height == 1200 : info.width == 1200 && info.height == 1800)

        let turned = try imaging.pixels(of: Corpus.path("photos/recurser__\(shape)_\(orientation).jpg"), fittedTo: box)
        #expect(turned.size == reference.size)
        let upsideDown = rotated180(reference.rgb)
        let difference = meanDifference(turned.rgb, reference.rgb)
        #expect(difference < 8, "orientation \(orientation) differs from upright by \(difference)")
        #expect(meanDifference(turned.rgb, upsideDown) > difference * 2)
    }

    private func rotated180(_ rgb: [UInt8]) -> [UInt8] {
        var pixels: [[UInt8]] = stride(from: 0, to: rgb.count, by: 3).map { Array(rgb[$0..<$0 + 3]) }
        pixels.reverse()
        return pixels.flatMap { $0 }
    }
}
