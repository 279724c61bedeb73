internal import CShims
internal import CVips
import Foundation

/// The image engine: probes and renders untrusted image files with libvips.
///
/// Every file is opened with the one loader its magic bytes name, sequentially, failing on
/// truncation, and its pixel count is checked from the header before a pixel is decoded.
public struct Imaging: Sendable {
    /// Keeps libvips from loading the plugin modules CameraRoll never uses: ImageMagick, PDF,
    /// OpenSlide and JPEG XL, with their dozens of libraries (4 MB of every process that touches
    /// an image, and code a crafted file could reach, though their loaders are blocked). It sets
    /// the environment, so a program calls it first thing, before any thread starts.
    public static func skipUnusedModules() {
        cr_vips_skip_modules()
    }

    /// The most pixels an image may have (width × height of one page).
    public var maxPixels: Int

    public static let defaultMaxPixels = 200_000_000

    /// What decodes a JPEG at a reduced size when nothing is being judged: libjpeg itself, a
    /// sixth quicker, or libvips' loader, which the tests compare it with.
    package var shrunkJPEGDecoder = ShrunkJPEGDecoder.libjpeg

    package enum ShrunkJPEGDecoder: Sendable {
        case libjpeg, libvips
    }

    public init(maxPixels: Int = Imaging.defaultMaxPixels) throws(ImagingError) {
        try VipsRuntime.ensureStarted()
        self.maxPixels = maxPixels
    }

    /// The version of the engine that renders (libvips): a rendering's validator names it, since
    /// another version may encode the same recipe into other bytes.
    public var engineVersion: String { (try? VipsRuntime.started.get()) ?? "unknown" }

    /// The format of a file, from its first bytes; nil when it is not an allowed image.
    public static func sniff(path: String) throws(ImagingError) -> ImageFormat? {
        ImageFormat.sniff(try readHeader(path))
    }

    static func readHeader(_ path: String) throws(ImagingError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImagingError(.unreadable, "The image file cannot be opened.")
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.read(upToCount: ImageFormat.sniffLength) ?? Data())
        } catch {
            throw ImagingError(.unreadable, "The image file cannot be read.")
        }
    }

    /// Opens the file's header with its format's loader and enforces the pixel limit.
    func open(_ file: ImageFile) throws(ImagingError) -> VipsImage {
        let image = try VipsRuntime.load(file.format, path: file.path, shrink: 1)
        try checkLimit(image)
        return image
    }

    /// Refuses a file whose own structure shows damage: it stops before its image data ends
    /// (`truncated`), or a checksum does not hold (`corrupt`). A decoder may or may not notice
    /// either, so an import asks this before trusting a decode. A JPEG's data is judged by
    /// libjpeg during that decode instead (`render` with `.refuseDamage`).
    public func checkStructure(_ path: String) throws(ImagingError) {
        guard let format = try Self.sniff(path: path) else { return }
        try checkStructure(ImageFile(path, format: format))
    }

    public func checkStructure(_ file: ImageFile) throws(ImagingError) {
        switch FileStructure.problem(file.path, file.format) {
        case .truncated: throw .truncated()
        case .checksumMismatch: throw ImagingError(.corrupt, "The image file is damaged: a checksum does not match its data.")
        case .malformed: throw ImagingError(.corrupt, "The image file is damaged: its structure is broken.")
        case nil: return
        }
    }

    /// Runs decoding work on a file and names a decoder's refusal precisely: truncation when
    /// the file's structure (for JPEG, libjpeg) shows it ends early, damage when libjpeg lost
    /// pixels to it, or the kind of JPEG libjpeg does not decode.
    func decoding<T>(_ file: ImageFile, _ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        do {
            return try body()
        } catch {
            guard error.code == .corrupt else { throw error }
            if file.format == .jpeg { throw JPEGDecoder.damage(file.path, maxPixels: maxPixels) ?? error }
            throw FileStructure.problem(file.path, file.format) == .truncated ? .truncated(detail: error.detail) : error
        }
    }

    private func checkLimit(_ image: VipsImage) throws(ImagingError) {
        let pixels = image.width * image.height
        guard image.width > 0, image.height > 0 else {
            throw ImagingError(.corrupt, "The image has no pixels.")
        }
        guard pixels <= maxPixels else {
            let megapixels = pixels / 1_000_000
            throw ImagingError(
                .tooLarge,
                "The image has \(megapixels) megapixels; the limit is \(maxPixels / 1_000_000) megapixels.")
        }
    }
}

/// An image file and its format, read from its header once: an import sniffs the file, and
/// checking, probing and rendering it then read the header no more (nor does a render of an
/// asset whose format the library keeps).
public struct ImageFile: Sendable {
    public let path: String
    public let format: ImageFormat

    /// The file at `path`, its format sniffed from its header.
    public init(_ path: String) throws(ImagingError) {
        guard let format = try Imaging.sniff(path: path) else {
            throw ImagingError(.unsupportedType, "The file is not a JPEG, PNG, WebP, GIF, HEIF, AVIF or TIFF image.")
        }
        self.init(path, format: format)
    }

    /// A file whose header its caller has sniffed as `format` (or whose format it keeps).
    public init(_ path: String, format: ImageFormat) {
        self.path = path
        self.format = format
    }
}
