public import Imaging
public import Places
public import Vocabulary

/// One photo or video in the library: its original's identity and what was learnt from it.
public struct Asset: Sendable, Equatable, Codable, Identifiable {
    public var id: String
    public var mediaType: MediaType
    /// SHA-256 of the original's bytes, which never change.
    public var blobHash: String
    public var byteSize: Int
    /// The image format or video container found in the bytes.
    public var format: AssetFormat
    public var mimeType: String
    public var originalFilename: String?
    /// Displayed size: after EXIF orientation (images) or rotation (videos).
    public var width: Int
    public var height: Int
    /// Seconds, for movies.
    public var duration: Double?
    public var orientation: Int
    public var captureDate: String?
    public var cameraMake: String?
    public var cameraModel: String?
    public var hasGPS: Bool
    /// Whether the image says it is a screenshot (its EXIF or XMP, or its file's name).
    public var isScreenshot: Bool
    /// A photo's lens, exposure and location, as its EXIF states them; a movie's location as its
    /// container states it (ISO 6709), the rest nil; all nil for what was imported before the
    /// library read them (their columns are NULL: movies' locations before places).
    public var exif: ExifDetails
    /// The town, region and country where it was taken (`Geocoder`), nil without a position, far
    /// from any town, or until the gazetteer has looked it up.
    public var place: Place?
    /// Frames a second as recorded, for movies whose probe told it.
    public var captureFrameRate: Double?
    public var source: AssetSource
    /// A camera capture nobody has saved to the Camera Roll yet.
    public var isUnsaved: Bool
    public var importDate: String
    public var isFavorite: Bool
    public var trashedDate: String?
    public var inCameraRoll: Bool
    public var edit: Edit?
    /// Whether browsers play the original as it is (movies).
    public var isBrowserPlayable: Bool?
    /// For the still of a Live Photo: the movie asset that is its motion (`LivePhoto`).
    public var livePhotoMovie: String?
    /// For the movie half of a Live Photo: the still it belongs to. Such a movie is in no listing.
    public var livePhotoStill: String?
    /// Whose it is.
    public var owner: Owner
    /// The shared link a guest added it through (`ShareLink`), whose id it keeps after the link
    /// is gone; nil for everything its owner added.
    public var fromLink: String?
}
