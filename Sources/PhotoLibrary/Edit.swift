public import Imaging
public import Vocabulary

/// A non-destructive edit, stored as parameters beside the untouched original.
public enum Edit: Sendable, Equatable, Codable {
    /// Images: turned and mirrored once upright, then cut to a crop (`ImageEdit`).
    case image(ImageEdit)
    /// A time range in seconds, start inclusive, end exclusive (movies).
    case trim(start: Double, end: Double)

    /// A crop alone, in the upright original's pixels: what the picker's Move and Scale makes.
    public static func crop(_ rect: PixelRect) -> Edit { .image(ImageEdit(crop: rect)) }

    /// JSON as the API spells it: `{"cropRect": {...}, "rotation": 90, "flipped": true}` (each
    /// part optional) or `{"trim": {start, end}}`.
    private enum CodingKeys: String, CodingKey { case cropRect, rotation, flipped, trim }
    private struct Range: Codable {
        var start: Double
        var end: Double
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let range = try container.decodeIfPresent(Range.self, forKey: .trim) {
            self = .trim(start: range.start, end: range.end)
            return
        }
        let rotation = try container.decodeIfPresent(Int.self, forKey: .rotation) ?? 0
        guard rotation % 90 == 0, (0..<360).contains(rotation) else {
            throw DecodingError.dataCorruptedError(forKey: .rotation, in: container, debugDescription: "0, 90, 180 or 270.")
        }
        let edit = ImageEdit(
            reorientation: Reorientation(
                quarterTurns: rotation / 90, mirrored: try container.decodeIfPresent(Bool.self, forKey: .flipped) ?? false),
            crop: try container.decodeIfPresent(PixelRect.self, forKey: .cropRect))
        guard !edit.isNone else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An edit changes something."))
        }
        self = .image(edit)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .image(let edit):
            try container.encodeIfPresent(edit.crop, forKey: .cropRect)
            if edit.reorientation.quarterTurns != 0 { try container.encode(edit.reorientation.quarterTurns * 90, forKey: .rotation) }
            if edit.reorientation.mirrored { try container.encode(true, forKey: .flipped) }
        case .trim(let start, let end): try container.encode(Range(start: start, end: end), forKey: .trim)
        }
    }

    /// Checks the edit against the asset it is for; the error names the offending field.
    public func validate(for asset: Asset) throws(LibraryError) {
        try validate(mediaType: asset.mediaType, size: asset.size, duration: asset.duration)
    }

    /// The same for an asset's kind, upright size and length alone (what a fuzz target has).
    package func validate(mediaType: MediaType, size: PixelSize, duration: Double?) throws(LibraryError) {
        switch self {
        case .image(let edit):
            guard mediaType == .image else {
                throw LibraryError(
                    .invalidEdit, "\(edit.crop == nil ? "rotation" : "cropRect"): only images can be cropped, rotated or flipped.")
            }
            guard let rect = edit.crop else { return }
            guard rect.width > 0, rect.height > 0 else {
                throw LibraryError(.invalidEdit, "cropRect: width and height must be positive.")
            }
            let frame = edit.reorientation.size(of: size)
            guard rect.isInside(frame) else {
                throw LibraryError(
                    .invalidEdit,
                    "cropRect: \(rect) does not lie inside the \(frame.width)x\(frame.height) image\(edit.reorientation == .none ? "" : " as rotated")."
                )
            }
        case .trim(let start, let end):
            guard mediaType == .movie, let duration else {
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

/// What the library's editor (and the picker's Move and Scale) does to a photo: turn it and
/// mirror it once upright, then cut it to `crop`, given in the turned image's pixels.
public struct ImageEdit: Hashable, Sendable {
    public var reorientation: Reorientation
    public var crop: PixelRect?

    public init(reorientation: Reorientation = .none, crop: PixelRect? = nil) {
        self.reorientation = reorientation
        self.crop = crop
    }

    /// Neither turned nor cut: the photo as it is.
    public var isNone: Bool { reorientation == .none && crop == nil }
}
