public import Vocabulary

/// What a probe learns from an image's header, without decoding its pixels.
public struct ImageInfo: Sendable, Codable, Equatable {
    public var format: ImageFormat
    /// The size as displayed, after the EXIF orientation is applied.
    public var width: Int
    public var height: Int
    /// EXIF orientation 1...8 (1 when absent or invalid).
    public var orientation: Int
    /// "YYYY-MM-DDTHH:MM:SS", with "+HH:MM" when the camera recorded its offset.
    public var captureDate: String?
    public var cameraMake: String?
    public var cameraModel: String?
    public var hasGPS: Bool
    public var hasICCProfile: Bool
    public var hasAlpha: Bool
    public var pageCount: Int
    /// The Live Photo content identifier of an iPhone's still (`AppleMakerNote`).
    public var contentIdentifier: String?
    /// Whether the image says it is a screenshot (`ScreenshotMark`).
    public var isScreenshot: Bool
    /// The lens, the exposure and the location its EXIF states.
    public var exif: ExifDetails

    public var size: PixelSize { PixelSize(width: width, height: height) }
}
