internal import CShims
internal import CVips
import Foundation

/// libvips is started once per process, before any image is touched. It is configured for
/// untrusted input: every loader libvips marks untrusted (ImageMagick, SVG, PDF, ...) is blocked,
/// and the operation cache is off so no file stays open or cached after a request.
enum VipsRuntime {
    /// The libvips version, or the reason it could not start. A `static let` is initialised
    /// exactly once, thread-safely, which is what `vips_init` needs.
    static let started: Result<String, ImagingError> = {
        guard vips_init("cameraroll") == 0 else {
            return .failure(VipsFailure.current(during: "start libvips"))
        }
        // With `skipModules` called, only the module for HEIF and AVIF is loaded; without it,
        // libvips has loaded them all and this one again is a no-op.
        _ = cr_vips_load_module("vips-heif.so")
        vips_block_untrusted_set(1)
        cr_vips_silence_warnings()
        vips_cache_set_max(0)
        return .success(String(cString: vips_version_string()))
    }()

    static func ensureStarted() throws(ImagingError) {
        if case .failure(let error) = started { throw error }
    }

    /// Whether libvips has a loader of this name (heifload exists only with libheif).
    static func hasOperation(_ name: String) -> Bool {
        vips_type_find("VipsOperation", name) != 0
    }

    static func load(_ format: ImageFormat, path: String, shrink: Int) throws(ImagingError) -> VipsImage {
        try ensureStarted()
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard cr_vips_load(format.loader, path, Int32(shrink), 1, &out) == 0, let out else {
            let failure = VipsFailure.current(during: "open")
            if format == .heif || format == .avif, HEIFOrientation.exceedsDecoderLimit(path) { throw VipsFailure.tooLarge(failure) }
            throw failure
        }
        return VipsImage(out)
    }
}

extension ImageFormat {
    fileprivate var loader: CRLoader {
        switch self {
        case .jpeg: CR_LOADER_JPEG
        case .png: CR_LOADER_PNG
        case .webp: CR_LOADER_WEBP
        case .gif: CR_LOADER_GIF
        case .heif, .avif: CR_LOADER_HEIF
        case .tiff: CR_LOADER_TIFF
        }
    }

    /// Whether the loader can decode at a reduced size (1/2, 1/4, 1/8), far faster for thumbnails.
    var shrinksOnLoad: Bool { self == .jpeg || self == .webp }
}
