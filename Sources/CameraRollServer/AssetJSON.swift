import Imaging
import PhotoLibrary

/// An asset as the API shows it: its metadata, its stored edit, and the URLs of its media.
struct AssetJSON: Encodable {
    struct URLs: Encodable {
        var original: String
        var thumbnail256: String
        var thumbnail512: String
        /// Add `w`, `h` (CSS pixels), `dpr` and optionally `fit` as query parameters.
        var display: String
        var edited: String
        /// What the library shows of it: the display of its edit when it has one (the edit in
        /// the URL, so that the URL changes with it), else `display`. Add `w`, `h`, `dpr`.
        var shown: String
        var poster: String?
        var video: String?
        var rendition: String?
    }

    /// A Live Photo's movie, which is an asset of its own that no listing shows.
    struct LivePhotoJSON: Encodable {
        var movie: String
        var video: String
        var original: String
        var rendition: String
    }

    var id: String
    var mediaType: String
    var width: Int
    var height: Int
    var duration: Double?
    var captureDate: String?
    var importDate: String
    var source: String
    var inCameraRoll: Bool
    var unsaved: Bool
    var favorite: Bool
    var trashed: Bool
    var originalFilename: String?
    var mimeType: String
    var byteSize: Int
    var cameraMake: String?
    var cameraModel: String?
    var hasGPS: Bool
    var isScreenshot: Bool
    /// What the viewer's info panel shows of a photo, from its EXIF; each absent when unknown.
    var lensModel: String?
    /// 2.2 for f/2.2.
    var fNumber: Double?
    /// Seconds: 0.008 for 1/125 s.
    var exposureTime: Double?
    var iso: Int?
    /// Millimetres, the lens's own (not its 35 mm equivalent).
    var focalLength: Double?
    /// Signed decimal degrees, north and east positive; both or neither.
    var latitude: Double?
    var longitude: Double?
    /// Frames a second as recorded (movies); 100 or more is slow motion to a picker's filter.
    var captureFrameRate: Double?
    var browserPlayable: Bool?
    /// `{cropRect, rotation, flipped}` or `{trim}`, as `PUT /api/assets/<id>/edit` takes it.
    var edit: Edit?
    var urls: URLs
    var livePhoto: LivePhotoJSON?
    /// On a Live Photo's movie: its still.
    var livePhotoStill: String?

    init(_ asset: Asset) {
        id = asset.id
        mediaType = asset.mediaType.rawValue
        width = asset.width
        height = asset.height
        duration = asset.duration
        captureDate = asset.captureDate
        importDate = asset.importDate
        source = asset.source.rawValue
        inCameraRoll = asset.inCameraRoll
        unsaved = asset.isUnsaved
        favorite = asset.isFavorite
        trashed = asset.trashedDate != nil
        originalFilename = asset.originalFilename
        mimeType = asset.mimeType
        byteSize = asset.byteSize
        cameraMake = asset.cameraMake
        cameraModel = asset.cameraModel
        hasGPS = asset.hasGPS
        isScreenshot = asset.isScreenshot
        lensModel = asset.exif.lensModel
        fNumber = asset.exif.fNumber
        exposureTime = asset.exif.exposureTime
        iso = asset.exif.iso
        focalLength = asset.exif.focalLength
        latitude = asset.exif.latitude
        longitude = asset.exif.longitude
        captureFrameRate = asset.captureFrameRate
        browserPlayable = asset.isBrowserPlayable
        edit = asset.edit
        let media = "/media/\(asset.id)"
        let isMovie = asset.mediaType == .movie
        // A photo's thumbnails and display show its edit, named in their URLs.
        var photoEdit: String?
        if case .image = asset.edit { photoEdit = asset.edit?.capabilityText }
        let withEdit = photoEdit.map { "&edit=\($0)" } ?? ""
        urls = URLs(
            original: "\(media)/original", thumbnail256: "\(media)/thumbnail?size=256\(withEdit)",
            thumbnail512: "\(media)/thumbnail?size=512\(withEdit)", display: "\(media)/display", edited: "\(media)/edited",
            shown: photoEdit.map { "\(media)/edited?edit=\($0)" } ?? "\(media)/display", poster: isMovie ? "\(media)/poster" : nil,
            video: isMovie ? "\(media)/video" : nil, rendition: isMovie ? "/api/assets/\(asset.id)/rendition" : nil)
        livePhoto = asset.livePhotoMovie.map { movie in
            LivePhotoJSON(
                movie: movie, video: "/media/\(movie)/video", original: "/media/\(movie)/original",
                rendition: "/api/assets/\(movie)/rendition")
        }
        livePhotoStill = asset.livePhotoStill
    }
}
