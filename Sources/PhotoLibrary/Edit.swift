public import Imaging

/// A non-destructive edit, stored as parameters beside the untouched original.
public enum Edit: Sendable, Equatable, Codable {
    /// A crop in the upright original's pixels (images).
    case crop(PixelRect)
    /// A time range in seconds, start inclusive, end exclusive (movies).
    case trim(start: Double, end: Double)

    private enum CodingKeys: String, CodingKey { case cropRect, trim }
    private struct Range: Codable {
        var start: Double
        var end: Double
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let rect = try container.decodeIfPresent(PixelRect.self, forKey: .cropRect) {
            self = .crop(rect)
        } else {
            let range = try container.decode(Range.self, forKey: .trim)
            self = .trim(start: range.start, end: range.end)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .crop(let rect): try container.encode(rect, forKey: .cropRect)
        case .trim(let start, let end): try container.encode(Range(start: start, end: end), forKey: .trim)
        }
    }

    /// Checks the edit against the asset it is for; the error names the offending field.
    public func validate(for asset: Asset) throws(LibraryError) {
        switch self {
        case .crop(let rect):
            guard asset.mediaType == .image else {
                throw LibraryError(.invalidEdit, "cropRect: only images can be cropped.")
            }
            guard rect.width > 0, rect.height > 0 else {
                throw LibraryError(.invalidEdit, "cropRect: width and height must be positive.")
            }
            guard rect.isInside(PixelSize(width: asset.width, height: asset.height)) else {
                throw LibraryError(.invalidEdit, "cropRect: \(rect) does not lie inside the \(asset.width)x\(asset.height) image.")
            }
        case .trim(let start, let end):
            guard asset.mediaType == .movie, let duration = asset.duration else {
                throw LibraryError(.invalidEdit, "trim: only movies can be trimmed.")
            }
            guard start.isFinite, end.isFinite, start >= 0, end > start else {
                throw LibraryError(.invalidEdit, "trim: start must be at least 0 and end must be after start.")
            }
            guard end <= duration + 0.001 else {
                throw LibraryError(.invalidEdit, "trim: end \(end) is past the movie's duration of \(duration) seconds.")
            }
        }
    }
}
