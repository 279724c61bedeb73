/// A size in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in pixels, its origin at the top left.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Whether the rectangle is non-empty and lies wholly inside an image of `size`: for any
    /// numbers at all, since a rectangle may come from a link (`x + width` could overflow; the
    /// differences below cannot, their operands being of one sign).
    public func isInside(_ size: PixelSize) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0
            && width <= size.width && x <= size.width - width
            && height <= size.height && y <= size.height - height
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
