import Imaging
public import Memo
public import Vocabulary

/// A file made from an original, ready to serve.
public struct Derivative: Sendable, Equatable {
    public var path: String
    public var mimeType: String
    /// The pixel size, for images.
    public var size: PixelSize?
    /// A strong validator for conditional requests.
    public var etag: String
    /// The bytes of the file that are this derivative, when it is only a part of it.
    public var range: Range<Int>? = nil
    /// The file's bytes, when it is small enough to be kept in memory (thumbnails), with room
    /// for the answer a server makes of them.
    public var kept: KeptBytes? = nil
}
