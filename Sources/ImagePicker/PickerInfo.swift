public import Vocabulary

/// The book's `info` dictionary, as a value: what the picker hands back when the user finishes.
public struct PickerInfo: Sendable, Codable, Equatable {
    public var mediaType: MediaType
    /// The asset the media is stored as.
    public var assetID: String
    /// The original image's URL (images).
    public var originalImage: String?
    /// The edited image's URL, when the user moved and scaled (images).
    public var editedImage: String?
    /// The crop in the upright original's pixels, when edited.
    public var cropRect: CropRect?
    /// The movie's URL (movies): the trimmed movie when trimmed.
    public var mediaURL: String?
    /// Start and end of the trim, in seconds, when trimmed.
    public var trim: TrimRange?
    /// A Live Photo's two files (UIKit's `livePhoto` key), when the picker's mediaTypes name
    /// `com.apple.live-photo`; `originalImage` is its still as well.
    public var livePhoto: LivePhotoURLs?
    /// Size, duration, capture date and the like.
    public var metadata: [String: String]

    public init(
        mediaType: MediaType, assetID: String, originalImage: String? = nil, editedImage: String? = nil,
        cropRect: CropRect? = nil, mediaURL: String? = nil, trim: TrimRange? = nil, livePhoto: LivePhotoURLs? = nil,
        metadata: [String: String] = [:]
    ) {
        self.mediaType = mediaType
        self.assetID = assetID
        self.originalImage = originalImage
        self.editedImage = editedImage
        self.cropRect = cropRect
        self.mediaURL = mediaURL
        self.trim = trim
        self.livePhoto = livePhoto
        self.metadata = metadata
    }

    /// The keys the book defines must be consistent: an image has an original and no movie URL,
    /// a movie has a movie URL and no images, an edited image has both its crop and its URL.
    public func validate() throws(PickerError) {
        switch mediaType {
        case .image:
            guard originalImage != nil, mediaURL == nil, trim == nil else {
                throw PickerError(.invalidInfo, "An image result has originalImage and no mediaURL or trim.")
            }
            guard (editedImage == nil) == (cropRect == nil) else {
                throw PickerError(.invalidInfo, "editedImage and cropRect come together.")
            }
        case .movie:
            guard mediaURL != nil, originalImage == nil, editedImage == nil, cropRect == nil, livePhoto == nil else {
                throw PickerError(.invalidInfo, "A movie result has mediaURL and no images.")
            }
        }
    }
}

/// The still and the movie of a Live Photo.
public struct LivePhotoURLs: Sendable, Codable, Equatable {
    public var imageURL: String
    public var movieURL: String

    public init(imageURL: String, movieURL: String) {
        self.imageURL = imageURL
        self.movieURL = movieURL
    }
}

public struct TrimRange: Sendable, Codable, Equatable {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }
}
