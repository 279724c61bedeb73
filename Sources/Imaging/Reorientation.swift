public import Vocabulary

/// A turn and a mirror applied once a photo is upright: what the library's Rotate and Flip store.
/// EXIF's eight orientations are exactly these pairs, so one composed with the file's own
/// orientation is again an EXIF orientation, and the decode turns the photo once, not twice.
public struct Reorientation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Quarter turns clockwise, 0 to 3.
    public let quarterTurns: Int
    /// Then mirrored left to right.
    public let mirrored: Bool

    public static let none = Reorientation(quarterTurns: 0, mirrored: false)

    /// Any number of quarter turns, either way (-1 is a turn anticlockwise).
    public init(quarterTurns: Int, mirrored: Bool) {
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.mirrored = mirrored
    }

    /// The size of an upright image of `size` once reoriented.
    public func size(of size: PixelSize) -> PixelSize {
        quarterTurns % 2 == 0 ? size : PixelSize(width: size.height, height: size.width)
    }

    public var description: String { "\(quarterTurns * 90)°\(mirrored ? " mirrored" : "")" }

    /// The EXIF orientation that makes stored pixels upright (`orientation`) and then applies
    /// this: the product of their matrices, looked up among EXIF's eight.
    func composed(withOrientation orientation: Int) -> Int {
        let upright = Self.matrices[(1...8).contains(orientation) ? orientation - 1 : 0]
        var turn = Matrix(1, 0, 0, 1)
        for _ in 0..<quarterTurns { turn = Self.clockwise * turn }
        if mirrored { turn = Self.mirror * turn }
        let total = turn * upright
        return (Self.matrices.firstIndex(of: total) ?? 0) + 1
    }

    /// The rectangle of a stored image of `storedSize` that `rect` of it turned upright by EXIF
    /// `orientation` shows.
    package static func storedRect(of rect: PixelRect, orientation: Int, storedSize: PixelSize) -> PixelRect {
        let matrix = matrices[(1...8).contains(orientation) ? orientation - 1 : 0]
        let turned = matrix.b != 0
        let upright = turned ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
        // Offsets from the centre, doubled to stay whole; the matrix's inverse is its transpose.
        let corners = [(rect.x, rect.y), (rect.x + rect.width, rect.y + rect.height)].map { x, y in
            let (dx, dy) = (2 * x - upright.width, 2 * y - upright.height)
            return ((matrix.a * dx + matrix.c * dy + storedSize.width) / 2, (matrix.b * dx + matrix.d * dy + storedSize.height) / 2)
        }
        let (left, right) = (min(corners[0].0, corners[1].0), max(corners[0].0, corners[1].0))
        let (top, bottom) = (min(corners[0].1, corners[1].1), max(corners[0].1, corners[1].1))
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// How each EXIF orientation moves a pixel's offset from the centre (x right, y down) to
    /// make the image upright: 1 as stored, 2 mirrored, 3 half a turn, 4 flipped upside down,
    /// 5 transposed, 6 a quarter turn clockwise, 7 transversed, 8 a quarter turn anticlockwise.
    private static let matrices = [
        Matrix(1, 0, 0, 1), Matrix(-1, 0, 0, 1), Matrix(-1, 0, 0, -1), Matrix(1, 0, 0, -1),
        Matrix(0, 1, 1, 0), Matrix(0, -1, 1, 0), Matrix(0, -1, -1, 0), Matrix(0, 1, -1, 0),
    ]
    private static let clockwise = Matrix(0, -1, 1, 0)
    private static let mirror = Matrix(-1, 0, 0, 1)

    private struct Matrix: Equatable {
        let a, b, c, d: Int
        init(_ a: Int, _ b: Int, _ c: Int, _ d: Int) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }
        static func * (left: Matrix, right: Matrix) -> Matrix {
            Matrix(
                left.a * right.a + left.b * right.c, left.a * right.b + left.b * right.d,
                left.c * right.a + left.d * right.c, left.c * right.b + left.d * right.d)
        }
    }
}
