import ImagePicker
import PhotoLibrary

extension PickerFilter {
    /// The kinds of asset the filter admits, for a listing to show only those.
    var kinds: Set<AssetKind> { Set(AssetKind.all.filter(admits)) }

    func admits(_ kind: AssetKind) -> Bool {
        admits { wanted in
            switch wanted {
            case .images: kind.mediaType == .image
            case .videos: kind.mediaType == .movie
            case .livePhotos: kind.isLivePhoto
            case .screenshots: kind.isScreenshot
            case .slomoVideos: kind.isHighFrameRate
            }
        }
    }
}
