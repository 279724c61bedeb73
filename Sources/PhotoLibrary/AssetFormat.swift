public import Imaging
public import Video
public import Vocabulary

/// What an original is, as its bytes said at import: an image format or a video container.
/// Stored and sent as its raw value (`jpeg`, `heif`, `mp4`, `matroska`, ...), which is stable.
public enum AssetFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    case image(ImageFormat)
    case movie(ContainerFormat)

    /// The format a stored value names; nil for one this version does not know.
    public init?(rawValue: String) {
        if let image = ImageFormat(rawValue: rawValue) {
            self = .image(image)
        } else if let container = ContainerFormat(rawValue: rawValue) {
            self = .movie(container)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .image(let format): format.rawValue
        case .movie(let container): container.rawValue
        }
    }

    public var mediaType: MediaType {
        switch self {
        case .image: .image
        case .movie: .movie
        }
    }

    /// Whether its pictures may be transparent, so that renders keep the alpha (as WebP).
    var mayHaveAlpha: Bool {
        switch self {
        case .image(.jpeg), .movie: false
        case .image: true
        }
    }

    /// Whether programs at large read it: what a `compatible` export leaves as it is. HEIF and
    /// AVIF need decoders many lack, TIFF is not a web format; movies are judged by browsers
    /// (the playable rendition), not here.
    public var isWidelyReadImage: Bool {
        switch self {
        case .image(.jpeg), .image(.png), .image(.gif), .image(.webp): true
        case .image, .movie: false
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let format = AssetFormat(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Unknown format \(text)."))
        }
        self = format
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
