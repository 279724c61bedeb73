import ImagePicker
import Testing

@Suite struct CropGeometryTests {
    @Test(arguments: [(4000, 3000), (3000, 4000), (1200, 1200), (17, 3000), (6000, 40)])
    func theLeastZoomFillsTheCropWithTheLargestSquare(width: Int, height: Int) {
        let geometry = CropGeometry(imageWidth: width, imageHeight: height, aspect: .square)
        let rect = geometry.cropRect
        #expect(rect.width == rect.height)
        #expect(rect.width == min(width, height))
        #expect(rect.x == (width - rect.width + 1) / 2 || rect.x == (width - rect.width) / 2)
        #expect(geometry.zoom == 1)
    }

    @Test(arguments: CropGeometry.Aspect.allCases, [(4032, 3024), (3024, 4032), (1000, 1000)])
    func theCropNeverLeavesTheImage(aspect: CropGeometry.Aspect, size: (Int, Int)) {
        var geometry = CropGeometry(imageWidth: size.0, imageHeight: size.1, aspect: aspect)
        let moves: [(Double, Double, Double)] = [(5000, 5000, 3), (-9000, 200, 0.2), (100, -8000, 40), (0, 0, 1.7), (-1, -1, 0.01)]
        for (dx, dy, factor) in moves {
            geometry.zoom(by: factor, anchorX: 0.9, anchorY: 0.1)
            geometry.pan(dx: dx, dy: dy, frameWidth: 375)
            let rect = geometry.cropRect
            #expect(rect.x >= 0 && rect.y >= 0 && rect.width >= 1 && rect.height >= 1)
            #expect(rect.x + rect.width <= size.0 && rect.y + rect.height <= size.1)
            #expect(geometry.zoom >= 1 && geometry.zoom <= geometry.maxZoom)
        }
    }

    @Test func aspectsFollowTheImagesOrientation() {
        #expect(
            CropGeometry(imageWidth: 4000, imageHeight: 3000, aspect: .fourByThree).cropRect
                == CropRect(x: 0, y: 0, width: 4000, height: 3000))
        #expect(
            CropGeometry(imageWidth: 3000, imageHeight: 4000, aspect: .fourByThree).cropRect
                == CropRect(x: 0, y: 0, width: 3000, height: 4000))
        let wide = CropGeometry(imageWidth: 4000, imageHeight: 3000, aspect: .sixteenByNine).cropRect
        #expect(wide.width == 4000 && wide.height == 2250 && wide.y == 375)
        #expect(
            CropGeometry(imageWidth: 1800, imageHeight: 1200, aspect: .original).cropRect == CropRect(x: 0, y: 0, width: 1800, height: 1200)
        )
    }

    @Test func zoomKeepsTheAnchorStill() {
        var geometry = CropGeometry(imageWidth: 4000, imageHeight: 3000, aspect: .square)
        // Zoom 2x about the crop frame's top-left corner: that image point (500, 0) stays put.
        geometry.zoom(by: 2, anchorX: 0, anchorY: 0)
        #expect(geometry.cropRect == CropRect(x: 500, y: 0, width: 1500, height: 1500))
        geometry.zoom(by: 0.5, anchorX: 0, anchorY: 0)
        #expect(geometry.cropRect == CropRect(x: 500, y: 0, width: 3000, height: 3000))
    }

    @Test func panningMovesTheCropAgainstTheDrag() {
        var geometry = CropGeometry(imageWidth: 4000, imageHeight: 3000, aspect: .square)
        geometry.zoom(by: 2)
        let before = geometry.cropRect
        // The frame is 300 screen pixels for 1500 image pixels: 5 image pixels per screen pixel.
        geometry.pan(dx: 20, dy: -10, frameWidth: 300)
        let after = geometry.cropRect
        #expect(after.x == before.x - 100 && after.y == before.y + 50)
        #expect(geometry.scale(frameWidth: 300) == 0.2)
    }

    @Test func anExistingCropRoundTrips() {
        for rect in [
            CropRect(x: 100, y: 300, width: 800, height: 800), CropRect(x: 0, y: 0, width: 1200, height: 1200),
            CropRect(x: 1799, y: 1199, width: 1, height: 1),
        ] {
            let geometry = CropGeometry(imageWidth: 1800, imageHeight: 1200, cropRect: rect, aspect: .square)
            if rect.width >= 1200 / Int(geometry.maxZoom) {
                #expect(geometry.cropRect == rect)
            } else {
                #expect(geometry.cropRect.width >= rect.width)
            }
        }
        let free = CropRect(x: 10, y: 20, width: 900, height: 300)
        #expect(CropGeometry(imageWidth: 1800, imageHeight: 1200, cropRect: free).cropRect == free)
    }

    @Test func zoomStopsAtAThirtyTwoPixelCrop() {
        var geometry = CropGeometry(imageWidth: 3200, imageHeight: 3200, aspect: .square)
        geometry.zoom(by: 1000)
        #expect(geometry.cropRect.width == 32)
        #expect(geometry.maxZoom == 100)
        let tiny = CropGeometry(imageWidth: 10, imageHeight: 10)
        #expect(tiny.maxZoom == 1)
    }
}
