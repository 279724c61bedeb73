import Imaging
import Video
import Vocabulary

/// The names of derivative files: each encodes its whole recipe, so a name identifies one output.
enum DerivativeKey {
    /// Changes whenever a recipe of ours makes other bytes from the same key (new encode
    /// settings), so that no validator names two renderings.
    static let recipeVersion = "r1"

    static let thumbnailSizes = [256, 512]

    /// A thumbnail, of the photo as `edit` makes it (nil: as it is).
    static func thumbnail(_ size: Int, edit: ImageEdit? = nil) -> String {
        if edit == nil, let name = plainThumbnails[size] { return name }
        return "\(prefix(edit))thumb-\(size).webp"
    }

    /// The names asked for on every request for a grid's thumbnail, made once.
    private static let plainThumbnails = Dictionary(uniqueKeysWithValues: thumbnailSizes.map { ($0, "thumb-\($0).webp") })

    static func display(box: PixelSize, fit: Fit, edit: ImageEdit?, encoding: RenderRequest.Encoding) -> String {
        "\(prefix(edit))display-\(box.width)x\(box.height)-\(fit.rawValue).\(encoding.fileExtension)"
    }

    /// What an edit does, first in the names of its renders: `turn-1-mirror-` and
    /// `crop-x-y-width-height-` (a crop alone keeps the names renders of crops had before turns).
    private static func prefix(_ edit: ImageEdit?) -> String {
        guard let edit else { return "" }
        let turn =
            edit.reorientation == .none ? "" : "turn-\(edit.reorientation.quarterTurns)-\(edit.reorientation.mirrored ? "mirror-" : "")"
        let region = edit.crop.map { "crop-\($0.x)-\($0.y)-\($0.width)-\($0.height)-" } ?? ""
        return turn + region
    }

    static let poster = "poster.jpg"
    static let scrubStrip = "strip-\(VideoTools.scrubStripFrames)x\(VideoTools.scrubStripFrameWidth).jpg"
    static let playable = "playable.mp4"

    /// A JPEG original without what a pick removed (`JPEGRedaction`).
    static func redacted(location: Bool, captions: Bool) -> String {
        "redacted\(location ? "-location" : "")\(captions ? "-captions" : "").jpg"
    }

    /// A segment of the stream (`StreamLayout`); the segment length is in the name, so a new
    /// length never serves the old cuts.
    static func streamSegment(_ index: Int) -> String {
        "stream-\(Int(StreamLayout.segmentSeconds * 1000))ms-\(index).mp4"
    }

    /// A range's seconds in their shortest exact spelling: two ranges that round alike (a
    /// capability's signed `0,0.0004` and `0,0.0001`) are two files.
    static func trimmed(start: Double, end: Double) -> String {
        "trim-\(start)-\(end).mp4"
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
