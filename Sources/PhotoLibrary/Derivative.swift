public import Imaging

/// A file made from an original, ready to serve.
public struct Derivative: Sendable, Equatable {
    public var path: String
    public var mimeType: String
    /// The pixel size, for images.
    public var size: PixelSize?
    /// A strong validator for conditional requests.
    public var etag: String
    /// The file's bytes, when it is small enough to be kept in memory (thumbnails).
    public var bytes: [UInt8]? = nil
}
