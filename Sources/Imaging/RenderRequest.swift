public import Vocabulary

/// One output wanted from an image: a region of the upright image fitted to a box and encoded.
public struct RenderRequest: Hashable, Sendable, Codable {
    public enum Encoding: Hashable, Sendable, Codable {
        case jpeg(quality: Int)
        case webp(quality: Int)

        public var mimeType: String {
            switch self {
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            }
        }
    }

    /// The box in device pixels (CSS size × devicePixelRatio).
    public var box: PixelSize
    public var fit: Fit
    /// A crop in the upright (EXIF-oriented) image's pixels; nil for the whole image.
    public var crop: PixelRect?
    public var encoding: Encoding

    public init(box: PixelSize, fit: Fit = .contain, crop: PixelRect? = nil, encoding: Encoding) {
        self.box = box
        self.fit = fit
        self.crop = crop
        self.encoding = encoding
    }
}

/// One rendered output.
public struct RenderedImage: Sendable {
    public var size: PixelSize
    public var data: [UInt8]
    public var mimeType: String

    public init(size: PixelSize, data: [UInt8], mimeType: String) {
        self.size = size
        self.data = data
        self.mimeType = mimeType
    }
}
