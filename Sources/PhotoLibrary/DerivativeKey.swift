import Imaging

/// The names of derivative files: each encodes its whole recipe, so a name identifies one output.
enum DerivativeKey {
    /// Changes whenever a recipe of ours makes other bytes from the same key (new encode
    /// settings), so that no validator names two renderings.
    static let recipeVersion = "r1"

    static let thumbnailSizes = [256, 512]

    static func thumbnail(_ size: Int) -> String { "thumb-\(size).webp" }

    static func display(box: PixelSize, fit: Fit, crop: PixelRect?, encoding: RenderRequest.Encoding) -> String {
        let region = crop.map { "crop-\($0.x)-\($0.y)-\($0.width)-\($0.height)-" } ?? ""
        return "\(region)display-\(box.width)x\(box.height)-\(fit.rawValue).\(encoding.fileExtension)"
    }

    static let poster = "poster.jpg"
    static let playable = "playable.mp4"

    /// A JPEG original without what a pick removed (`JPEGRedaction`).
    static func redacted(location: Bool, captions: Bool) -> String {
        "redacted\(location ? "-location" : "")\(captions ? "-captions" : "").jpg"
    }

    static func trimmed(start: Double, end: Double) -> String {
        "trim-\(Int((start * 1000).rounded()))-\(Int((end * 1000).rounded())).mp4"
    }
}

extension RenderRequest.Encoding {
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }
}
