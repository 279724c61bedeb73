public import Vocabulary

/// What kind of item an asset is, as a picker's filter tells items apart: its media type and the
/// subtypes that can be asked for. Few enough to list (`all`), so that any filter over them is a
/// set of kinds, which a listing turns into SQL.
public struct AssetKind: Hashable, Sendable {
    public var mediaType: MediaType
    /// A still with its motion: a Live Photo, or a motion photo whose movie was taken out.
    public var isLivePhoto: Bool
    public var isScreenshot: Bool
    /// A movie recorded at `highFrameRate` frames a second or more: iOS's slow-motion subtype.
    public var isHighFrameRate: Bool

    public static let highFrameRate: Double = 100

    public static let all: [AssetKind] =
        [false, true].flatMap { live in
            [false, true].map { screenshot in
                AssetKind(mediaType: .image, isLivePhoto: live, isScreenshot: screenshot, isHighFrameRate: false)
            }
        } + [false, true].map { AssetKind(mediaType: .movie, isLivePhoto: false, isScreenshot: false, isHighFrameRate: $0) }

    /// This kind, as a condition over `assets a`.
    var condition: String {
        let live = "EXISTS (SELECT 1 FROM assets p WHERE p.live_photo_of = a.id)"
        let fast = "coalesce(a.capture_frame_rate, 0) >= \(Self.highFrameRate)"
        return switch mediaType {
        case .image:
            "(a.media_type = 'public.image' AND \(isLivePhoto ? "" : "NOT ")\(live) AND \(isScreenshot ? "" : "NOT ")a.is_screenshot)"
        case .movie: "(a.media_type = 'public.movie' AND \(isHighFrameRate ? "" : "NOT ")\(fast))"
        }
    }
}

extension Asset {
    public var kind: AssetKind {
        AssetKind(
            mediaType: mediaType, isLivePhoto: livePhotoMovie != nil, isScreenshot: mediaType == .image && isScreenshot,
            isHighFrameRate: mediaType == .movie && (captureFrameRate ?? 0) >= AssetKind.highFrameRate)
    }
}
