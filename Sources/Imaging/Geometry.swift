public import Vocabulary

/// A pixel number read from outside (a link's crop, a request's JSON): the one place that
/// bounds them, so that every sum and product the geometry makes of them fits an `Int`, however
/// a client spells them. No picture has a side beyond libvips' own limit (`VIPS_MAX_COORD`).
public enum PixelNumber {
    public static let largest = 10_000_000

    /// The number a URL spells in decimal digits with an optional sign; nil for anything else or
    /// beyond ±`largest`.
    public static func read(_ text: some StringProtocol) -> Int? {
        Int(text).flatMap(bounded)
    }

    /// The number a JSON value gives; nil unless it is whole and within ±`largest`.
    public static func read(_ value: Double) -> Int? {
        guard value.isFinite, value == value.rounded(), abs(value) <= Double(largest) else { return nil }
        return Int(value)
    }

    private static func bounded(_ value: Int) -> Int? {
        (-largest...largest).contains(value) ? value : nil
    }
}

/// How an image is fitted to a box.
public enum Fit: String, Sendable, Codable, CaseIterable {
    /// The whole image, as large as fits inside the box (the book's `shrinkImage`).
    case contain
    /// The box filled, the overflow cut evenly from both sides.
    case cover
}

/// The sizes a render produces, computed before any pixel is touched so that callers and tests
/// can know them exactly. Images are never upscaled.
public enum FitGeometry {
    /// The output size for a source region fitted to `box`. With `.contain`, one side equals the
    /// box's side and the other is no larger, unless the source is already smaller than the box.
    public static func outputSize(of source: PixelSize, in box: PixelSize, fit: Fit) -> PixelSize {
        precondition(source.width > 0 && source.height > 0 && box.width > 0 && box.height > 0)
        switch fit {
        case .contain:
            if source.width <= box.width && source.height <= box.height { return source }
            // Compare bw/sw with bh/sh without rounding: bw*sh vs bh*sw.
            if box.width * source.height <= box.height * source.width {
                let height = roundedRatio(source.height * box.width, source.width)
                return PixelSize(width: box.width, height: clamp(height, to: box.height))
            } else {
                let width = roundedRatio(source.width * box.height, source.height)
                return PixelSize(width: clamp(width, to: box.width), height: box.height)
            }
        case .cover:
            // The largest box-shaped size that the source can fill without upscaling.
            let scaleLimitedByWidth = source.width * box.height <= source.height * box.width
            if source.width >= box.width && source.height >= box.height { return box }
            if scaleLimitedByWidth {
                let height = roundedRatio(box.height * source.width, box.width)
                return PixelSize(width: min(box.width, source.width), height: clamp(height, to: source.height))
            } else {
                let width = roundedRatio(box.width * source.height, box.height)
                return PixelSize(width: clamp(width, to: source.width), height: min(box.height, source.height))
            }
        }
    }

    /// The part of `source` that is shown when it is fitted to an output of `output`'s shape:
    /// all of it for `.contain`, a centred cut of the output's aspect for `.cover`.
    public static func visibleRegion(of source: PixelRect, for output: PixelSize, fit: Fit) -> PixelRect {
        guard fit == .cover else { return source }
        var region = source
        if source.width * output.height > source.height * output.width {
            region.width = clamp(roundedRatio(source.height * output.width, output.height), to: source.width)
            region.x += (source.width - region.width) / 2
        } else {
            region.height = clamp(roundedRatio(source.width * output.height, output.width), to: source.height)
            region.y += (source.height - region.height) / 2
        }
        return region
    }

    private static func roundedRatio(_ numerator: Int, _ denominator: Int) -> Int {
        (2 * numerator + denominator) / (2 * denominator)
    }

    private static func clamp(_ value: Int, to limit: Int) -> Int {
        min(max(value, 1), limit)
    }
}
