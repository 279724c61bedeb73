public import Vocabulary

/// The Move and Scale screen's arithmetic: a crop frame of fixed aspect over the upright image,
/// moved and zoomed, giving the book's `cropRect` in the image's pixels. The crop never leaves
/// the image, and the least zoom makes the crop as large as the image allows (so it is filled).
public struct CropGeometry: Sendable, Equatable {
    public enum Aspect: String, Sendable, Codable, CaseIterable {
        case square
        /// The image's own shape.
        case original
        /// 4:3, or 3:4 for a portrait image.
        case fourByThree
        /// 16:9, or 9:16 for a portrait image.
        case sixteenByNine
        /// Whatever shape the crop was given (see `init(imageWidth:imageHeight:cropRect:)`).
        case free
    }

    public let imageWidth: Int
    public let imageHeight: Int
    public let aspect: Aspect
    /// Width over height of the crop.
    public let ratio: Double
    /// 1 is the least zoom: the crop as large as fits.
    public private(set) var zoom: Double = 1
    /// The crop's centre, in image pixels.
    public private(set) var centerX: Double
    public private(set) var centerY: Double

    public init(imageWidth: Int, imageHeight: Int, aspect: Aspect = .square) {
        precondition(imageWidth > 0 && imageHeight > 0)
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.aspect = aspect
        let landscape = imageWidth >= imageHeight
        switch aspect {
        case .square: ratio = 1
        case .original, .free: ratio = Double(imageWidth) / Double(imageHeight)
        case .fourByThree: ratio = landscape ? 4.0 / 3.0 : 3.0 / 4.0
        case .sixteenByNine: ratio = landscape ? 16.0 / 9.0 : 9.0 / 16.0
        }
        centerX = Double(imageWidth) / 2
        centerY = Double(imageHeight) / 2
    }

    /// The geometry that reproduces a crop already made (editing it again).
    public init(imageWidth: Int, imageHeight: Int, cropRect: CropRect, aspect: Aspect = .free) {
        self.init(imageWidth: imageWidth, imageHeight: imageHeight, aspect: aspect)
        if aspect == .free {
            self = CropGeometry(imageWidth: imageWidth, imageHeight: imageHeight, ratio: Double(cropRect.width) / Double(cropRect.height))
        }
        zoom = min(max(baseWidth / Double(cropRect.width), 1), maxZoom)
        centerX = Double(cropRect.x) + Double(cropRect.width) / 2
        centerY = Double(cropRect.y) + Double(cropRect.height) / 2
        clamp()
    }

    private init(imageWidth: Int, imageHeight: Int, ratio: Double) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.aspect = .free
        self.ratio = ratio
        centerX = Double(imageWidth) / 2
        centerY = Double(imageHeight) / 2
    }

    /// The crop's size at the least zoom: the largest rectangle of `ratio` inside the image.
    private var baseWidth: Double {
        Double(imageWidth) / Double(imageHeight) >= ratio ? Double(imageHeight) * ratio : Double(imageWidth)
    }

    /// Zooming stops when the crop is 32 pixels across its short side (or at 1 for tiny images).
    public var maxZoom: Double {
        let shortSide = min(baseWidth, baseWidth / ratio)
        return max(1, shortSide / 32)
    }

    /// The crop in image pixels, whole and inside the image.
    public var cropRect: CropRect {
        var width = max(1, Int((baseWidth / zoom).rounded()))
        var height = max(1, Int((Double(width) / ratio).rounded()))
        if aspect == .square { height = width }
        width = min(width, imageWidth)
        height = min(height, imageHeight)
        if aspect == .square {
            width = min(width, height)
            height = width
        }
        let x = min(max(Int((centerX - Double(width) / 2).rounded()), 0), imageWidth - width)
        let y = min(max(Int((centerY - Double(height) / 2).rounded()), 0), imageHeight - height)
        return CropRect(x: x, y: y, width: width, height: height)
    }

    /// Screen pixels per image pixel when the crop frame is `frameWidth` screen pixels wide.
    public func scale(frameWidth: Double) -> Double {
        frameWidth / (baseWidth / zoom)
    }

    /// Dragging the image by (dx, dy) screen pixels moves the crop the other way.
    public mutating func pan(dx: Double, dy: Double, frameWidth: Double) {
        let scale = scale(frameWidth: frameWidth)
        centerX -= dx / scale
        centerY -= dy / scale
        clamp()
    }

    /// Zooms by `factor`, keeping the image point under the anchor still. The anchor is a
    /// position in the crop frame, (0, 0) top left to (1, 1) bottom right.
    public mutating func zoom(by factor: Double, anchorX: Double = 0.5, anchorY: Double = 0.5) {
        guard factor.isFinite, factor > 0 else { return }
        let width = baseWidth / zoom
        let height = width / ratio
        let pointX = centerX - width / 2 + anchorX * width
        let pointY = centerY - height / 2 + anchorY * height
        zoom = min(max(zoom * factor, 1), maxZoom)
        let newWidth = baseWidth / zoom
        let newHeight = newWidth / ratio
        centerX = pointX - anchorX * newWidth + newWidth / 2
        centerY = pointY - anchorY * newHeight + newHeight / 2
        clamp()
    }

    private mutating func clamp() {
        let width = baseWidth / zoom
        let height = width / ratio
        centerX = min(max(centerX, width / 2), Double(imageWidth) - width / 2)
        centerY = min(max(centerY, height / 2), Double(imageHeight) - height / 2)
    }
}

/// A rectangle in the upright original's pixels: the book's `cropRect`.
public typealias CropRect = PixelRect
