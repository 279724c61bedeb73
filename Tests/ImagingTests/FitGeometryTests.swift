import Imaging
import Testing
import Vocabulary

@Suite struct FitGeometryTests {
    /// The book's shrinkImage: one side equals the box's side and the other is no larger.
    @Test(arguments: [
        (PixelSize(width: 4000, height: 3000), PixelSize(width: 1170, height: 2532), PixelSize(width: 1170, height: 878)),
        (PixelSize(width: 3000, height: 4000), PixelSize(width: 1170, height: 2532), PixelSize(width: 1170, height: 1560)),
        (PixelSize(width: 1200, height: 1800), PixelSize(width: 800, height: 600), PixelSize(width: 400, height: 600)),
        (PixelSize(width: 1800, height: 1200), PixelSize(width: 256, height: 256), PixelSize(width: 256, height: 171)),
        (PixelSize(width: 100, height: 60), PixelSize(width: 256, height: 256), PixelSize(width: 100, height: 60)),
        (PixelSize(width: 10_000, height: 10), PixelSize(width: 256, height: 256), PixelSize(width: 256, height: 1)),
    ])
    func containFitsOneSideExactly(source: PixelSize, box: PixelSize, expected: PixelSize) {
        #expect(FitGeometry.outputSize(of: source, in: box, fit: .contain) == expected)
    }

    @Test func containNeverExceedsTheBoxAndKeepsTheAspect() {
        for width in stride(from: 7, to: 5000, by: 331) {
            for height in stride(from: 5, to: 5000, by: 287) {
                let source = PixelSize(width: width, height: height)
                let box = PixelSize(width: 375, height: 667)
                let out = FitGeometry.outputSize(of: source, in: box, fit: .contain)
                #expect(out.width <= box.width && out.height <= box.height)
                #expect(out.width == min(box.width, width) || out.height == min(box.height, height))
                let aspectError = abs(Double(out.width) / Double(out.height) - Double(width) / Double(height))
                let tolerance = Double(width) / Double(height) * (1.0 / Double(out.height) + 1.0 / Double(out.width))
                #expect(aspectError <= tolerance + 1e-9)
            }
        }
    }

    @Test func coverFillsTheBoxFromTheCentre() {
        let source = PixelRect(x: 0, y: 0, width: 4000, height: 3000)
        let out = FitGeometry.outputSize(of: source.size, in: PixelSize(width: 500, height: 500), fit: .cover)
        #expect(out == PixelSize(width: 500, height: 500))
        #expect(FitGeometry.visibleRegion(of: source, for: out, fit: .cover) == PixelRect(x: 500, y: 0, width: 3000, height: 3000))
        #expect(FitGeometry.visibleRegion(of: source, for: out, fit: .contain) == source)
    }

    @Test func coverNeverUpscales() {
        let out = FitGeometry.outputSize(of: PixelSize(width: 300, height: 150), in: PixelSize(width: 200, height: 200), fit: .cover)
        #expect(out == PixelSize(width: 150, height: 150))
    }
}
