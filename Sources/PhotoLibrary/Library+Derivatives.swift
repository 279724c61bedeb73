public import Imaging
import Video

extension Library {
    /// The largest box a display request may ask for, a side.
    public static let maxDisplaySide = 16384

    /// A thumbnail fitting a `size`×`size` box (256 or 512), made at import and remade if the
    /// cache lost it.
    public func thumbnail(of id: String, size: Int) async throws(LibraryError) -> Derivative {
        guard DerivativeKey.thumbnailSizes.contains(size) else {
            throw LibraryError(
                .invalidRequest,
                "size: thumbnails come in \(DerivativeKey.thumbnailSizes.map(String.init).joined(separator: " and ")) pixels.")
        }
        let asset = try asset(id)
        let box = PixelSize(width: size, height: size)
        return try await render(asset, key: DerivativeKey.thumbnail(size), request: RenderRequest(box: box, encoding: .webp(quality: 80)))
    }

    /// The image (or a movie's poster) fitted to a box in device pixels: with `.contain`, one side
    /// equals the box's and the other is no larger, never upscaled past the original. With
    /// `edited`, the stored crop is applied first.
    public func display(of id: String, box: PixelSize, fit: Fit = .contain, edited: Bool = false) async throws(LibraryError) -> Derivative {
        guard (1...Self.maxDisplaySide).contains(box.width), (1...Self.maxDisplaySide).contains(box.height) else {
            throw LibraryError(.invalidRequest, "w, h: the box must be between 1 and \(Self.maxDisplaySide) pixels a side.")
        }
        let asset = try asset(id)
        var crop: PixelRect?
        if edited, case .crop(let rect) = asset.edit { crop = rect }
        let request = Self.displayRequest(format: asset.format, box: box, fit: fit, crop: crop)
        return try await render(
            asset, key: DerivativeKey.display(box: box, fit: fit, crop: crop, encoding: request.encoding), request: request)
    }

    /// How a display size is made: JPEG is smallest for photos; formats that may carry
    /// transparency keep it as WebP.
    static func displayRequest(format: String, box: PixelSize, fit: Fit, crop: PixelRect?) -> RenderRequest {
        let keepsAlpha = ["png", "gif", "webp", "avif", "heif", "tiff"].contains(format)
        return RenderRequest(box: box, fit: fit, crop: crop, encoding: keepsAlpha ? .webp(quality: 85) : .jpeg(quality: 85))
    }

    /// A movie's upright first frame, full size.
    public func poster(of id: String) async throws(LibraryError) -> Derivative {
        let asset = try asset(id)
        guard asset.mediaType == .movie else { throw LibraryError(.invalidRequest, "Only movies have posters.") }
        let size = PixelSize(width: asset.width, height: asset.height)
        return Derivative(path: try await posterPath(asset), mimeType: "image/jpeg", size: size)
    }

    private func render(_ asset: Asset, key: String, request: RenderRequest) async throws(LibraryError) -> Derivative {
        let region = request.crop ?? PixelRect(x: 0, y: 0, width: asset.width, height: asset.height)
        let size = FitGeometry.outputSize(of: region.size, in: request.box, fit: request.fit)
        if let path = derived.lookup(asset.blobHash, key) {
            return Derivative(path: path, mimeType: request.encoding.mimeType, size: size)
        }
        let source = asset.mediaType == .movie ? try await posterPath(asset) : originalPath(of: asset)
        let rendered = try await work.run { [imaging] () throws(LibraryError) -> RenderedImage in
            do {
                guard let output = try imaging.render(source, [request]).first else {
                    throw LibraryError(.invalidRequest, "Nothing was rendered.")
                }
                return output
            } catch let error as ImagingError {
                throw LibraryError(error)
            } catch {
                throw error as? LibraryError ?? LibraryError(.corrupt, "The image cannot be rendered.")
            }
        }
        let path = try derived.store(asset.blobHash, key, rendered.data)
        return Derivative(path: path, mimeType: rendered.mimeType, size: rendered.size)
    }

    private func posterPath(_ asset: Asset) async throws(LibraryError) -> String {
        if let path = derived.lookup(asset.blobHash, DerivativeKey.poster) { return path }
        guard let container = ContainerFormat(rawValue: asset.format) else {
            throw LibraryError(.corrupt, "The movie's container is unknown.")
        }
        let poster = try await makePoster(originalPath(of: asset), container: container)
        return try derived.adopt(asset.blobHash, DerivativeKey.poster, from: poster)
    }
}
