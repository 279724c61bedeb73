import Executors
import Foundation
public import Imaging
public import Memo
import Storage
import Video
public import Vocabulary

extension Library {
    /// The largest box a display request may ask for, a side.
    public static let maxDisplaySide = 16384

    /// The sides of the boxes thumbnails fit, made at import.
    public static var thumbnailSizes: [Int] { DerivativeKey.thumbnailSizes }

    static let thumbnailRequests = DerivativeKey.thumbnailSizes.map { size in
        RenderRequest(box: PixelSize(width: size, height: size), encoding: .webp(quality: 80))
    }

    /// How a display size is made: JPEG is smallest for photos; formats that may carry
    /// transparency keep it as WebP.
    static func displayRequest(format: AssetFormat, box: PixelSize, fit: Fit, crop: PixelRect?) -> RenderRequest {
        RenderRequest(box: box, fit: fit, crop: crop, encoding: format.mayHaveAlpha ? .webp(quality: 85) : .jpeg(quality: 85))
    }
}

/// What is made from originals and kept on this machine: thumbnails, display sizes, exports,
/// posters, and the cache that holds them (`DerivativeCache`). Renders run on a lane of their
/// own; a lookup in the cache runs on another, so that a thumbnail already made never waits
/// behind a decode.
public final class Derivatives: FileWorking {
    let stores: LibraryStores
    let catalog: Catalog
    let imaging: Imaging
    let cache: DerivativeCache
    /// Decodes and encodes, `options.imageWorkers` at once.
    let renders: BlockingExecutor<Void>
    /// Cache lookups and reads of what is made.
    let lane: BlockingExecutor<Void>

    init(_ stores: LibraryStores, catalog: Catalog, imaging: Imaging) {
        self.stores = stores
        self.catalog = catalog
        self.imaging = imaging
        cache = DerivativeCache(
            root: stores.folder.derived, limit: stores.options.derivedCacheBytes,
            encoder: "\(DerivativeKey.recipeVersion)-vips\(imaging.engineVersion)")
        renders = BlockingExecutor(name: "renders", threads: stores.options.imageWorkers)
        lane = BlockingExecutor(name: "derivatives", threads: 2)
        // The cache's size, counted once in the background (most of a minute for a large cold
        // cache): until then nothing is trimmed. On a render thread, not one of the two lookups.
        Task { [renders, cache] in await renders.run { cache.countUsage() } }
    }

    /// A thumbnail fitting a `size`×`size` box (256 or 512), made at import and remade if the
    /// cache lost it; of the photo as `edit` makes it (nil: as it is), whatever edit the asset
    /// has stored now, so that a URL naming an edit always shows the same picture. Of `owner`'s
    /// asset, or one shared with them (`Catalog.visibleAsset(_:to:)`).
    public func thumbnail(of id: String, size: Int, edit: ImageEdit? = nil, owner: Owner?) async throws(LibraryError)
        -> Derivative
    {
        let recipe = try thumbnailRecipe(size, edit: edit)
        // A listing remembered the asset's facts: a thumbnail already made needs no database
        // read (a screen of a timeline asks for sixty at once). It was made of an edit that fitted.
        let known = catalog.facts[id].flatMap { $0.belongs(to: owner) ? $0 : nil }
        if let facts = known, let made = await lane.run({ [cache] in cache.lookup(facts.blobHash, recipe.key) }) {
            return Self.derivative(made, facts, recipe)
        }
        let asset = try await catalog.visibleAsset(id, to: owner)
        try edit.map { edit throws(LibraryError) in try Edit.image(edit).validate(for: asset) }
        // Facts unknown are rare (a listing remembers them): such a photo's thumbnail looks in
        // the cache in its render's hop, which may wait behind renders, rather than in a hop of
        // its own. A movie's looks first, before its poster is found or made.
        let lookup: Lookup = known != nil ? .made : asset.mediaType == .movie ? .first : .inRender
        return try await render(asset, recipe, lookup: lookup)
    }

    /// A thumbnail's bytes (read on the library's executor when memory does not hold them): what
    /// a batch of a screen's thumbnails is made of.
    public func thumbnailBytes(of id: String, size: Int, edit: ImageEdit? = nil, owner: Owner?) async throws(LibraryError)
        -> (mimeType: String, bytes: StableBytes)
    {
        let made = try await thumbnail(of: id, size: size, edit: edit, owner: owner)
        if let kept = made.kept { return (made.mimeType, kept.stable) }
        return (made.mimeType, StableBytes(try await lane.run { () throws(LibraryError) in try Library.read(made.path) }))
    }

    /// The image (or a movie's poster) fitted to a box in device pixels: with `.contain`, one side
    /// equals the box's and the other is no larger, never upscaled past the original. With
    /// `edited`, the stored edit (a turn, a mirror, a crop) is applied first.
    public func display(of id: String, box: PixelSize, fit: Fit = .contain, edited: Bool = false, owner: Owner?)
        async throws(LibraryError) -> Derivative
    {
        let asset = try await catalog.visibleAsset(id, to: owner)
        var edit: ImageEdit?
        if edited, case .image(let stored) = asset.edit { edit = stored }
        return try await render(asset, try displayRecipe(format: asset.format, box: box, fit: fit, edit: edit))
    }

    /// The image as `edit` makes it, fitted to a box like `display(of:box:fit:edited:)`, whatever
    /// edit the asset has stored now: what a link made for that edit shows.
    public func display(of asset: Asset, edit: ImageEdit, box: PixelSize, fit: Fit = .contain) async throws(LibraryError) -> Derivative {
        try Edit.image(edit).validate(for: asset)
        return try await render(asset, try displayRecipe(format: asset.format, box: box, fit: fit, edit: edit))
    }

    /// The upright image at its own size as a JPEG (transparency flattened on white), for a
    /// caller who asked for a format every program reads.
    public func compatibleImage(of asset: Asset) async throws(LibraryError) -> Derivative {
        guard asset.mediaType == .image else { throw LibraryError(.invalidRequest, "Only images have a JPEG export.") }
        let request = RenderRequest(box: asset.size, fit: .contain, crop: nil, encoding: .jpeg(quality: 92))
        let recipe = Recipe(
            key: DerivativeKey.display(box: asset.size, fit: .contain, edit: nil, encoding: request.encoding), request: request)
        return try await render(asset, recipe)
    }

    /// A movie's upright first frame, full size.
    public func poster(of id: String, owner: Owner?) async throws(LibraryError) -> Derivative {
        let asset = try await catalog.visibleAsset(id, to: owner)
        guard asset.mediaType == .movie else { throw LibraryError(.invalidRequest, "Only movies have posters.") }
        let file = try await posterFile(asset)
        return Derivative(path: file.path, mimeType: "image/jpeg", size: asset.size, etag: file.etag)
    }

    // MARK: Derivatives already made

    /// The thumbnail if it was served lately and is still in memory, else nil; never renders,
    /// never waits, never asks the disk or the database. For answering from a server's poll
    /// thread; nil leaves the request to `thumbnail(of:size:)`, which remembers it.
    /// Of the photo as `edit` makes it: a render remembered was made of an edit that fitted.
    public func readyThumbnail(of id: String, size: Int, edit: ImageEdit? = nil, owner: Owner?) -> Derivative? {
        guard let recipe = try? thumbnailRecipe(size, edit: edit), let facts = catalog.facts[id], facts.belongs(to: owner) else {
            return nil
        }
        return remembered(facts, recipe)
    }

    /// The unedited display size, on the same terms as `readyThumbnail`.
    public func readyDisplay(of id: String, box: PixelSize, fit: Fit = .contain, owner: Owner?) -> Derivative? {
        guard let facts = catalog.facts[id], facts.belongs(to: owner),
            let recipe = try? displayRecipe(format: facts.format, box: box, fit: fit, edit: nil)
        else { return nil }
        return remembered(facts, recipe)
    }

    // MARK: Recipes

    /// What to make and under which name; `reoriented` turns the photo before the request's crop.
    struct Recipe {
        var key: String
        var request: RenderRequest
        var reoriented = Reorientation.none
    }

    private func thumbnailRecipe(_ size: Int, edit: ImageEdit? = nil) throws(LibraryError) -> Recipe {
        guard DerivativeKey.thumbnailSizes.contains(size) else {
            throw LibraryError(
                .invalidRequest,
                "size: thumbnails come in \(DerivativeKey.thumbnailSizes.map(String.init).joined(separator: " and ")) pixels.")
        }
        let box = PixelSize(width: size, height: size)
        return Recipe(
            key: DerivativeKey.thumbnail(size, edit: edit),
            request: RenderRequest(box: box, crop: edit?.crop, encoding: .webp(quality: 80)),
            reoriented: edit?.reorientation ?? .none)
    }

    private func displayRecipe(format: AssetFormat, box: PixelSize, fit: Fit, edit: ImageEdit?) throws(LibraryError) -> Recipe {
        guard (1...Library.maxDisplaySide).contains(box.width), (1...Library.maxDisplaySide).contains(box.height) else {
            throw LibraryError(.invalidRequest, "w, h: the box must be between 1 and \(Library.maxDisplaySide) pixels a side.")
        }
        let request = Library.displayRequest(format: format, box: box, fit: fit, crop: edit?.crop)
        return Recipe(
            key: DerivativeKey.display(box: box, fit: fit, edit: edit, encoding: request.encoding), request: request,
            reoriented: edit?.reorientation ?? .none)
    }

    // MARK: Making

    private func remembered(_ facts: AssetFacts, _ recipe: Recipe) -> Derivative? {
        cache.remembered(facts.blobHash, recipe.key).map { Self.derivative($0, facts, recipe) }
    }

    private static func derivative(_ file: DerivativeCache.CachedFile, _ facts: AssetFacts, _ recipe: Recipe) -> Derivative {
        let region = recipe.request.crop ?? PixelRect(size: recipe.reoriented.size(of: facts.size))
        // The output size is known from the recipe, so a cached file's size needs no decode.
        let size = FitGeometry.outputSize(of: region.size, in: recipe.request.box, fit: recipe.request.fit)
        return Derivative(path: file.path, mimeType: recipe.request.encoding.mimeType, size: size, etag: file.etag, kept: file.kept)
    }

    /// Where a render looks for a derivative already made: in a hop to the lookup lane first
    /// (which never waits behind a render), in the render's own hop, or nowhere (the caller has
    /// just looked).
    enum Lookup {
        case first, inRender, made
    }

    /// Made now unless the cache has it; the original is found and rendered in one hop to the
    /// render lane, and the answer keeps a small render's bytes.
    private func render(_ asset: Asset, _ recipe: Recipe, lookup: Lookup = .first) async throws(LibraryError) -> Derivative {
        catalog.remember(asset)
        let facts = AssetFacts(asset)
        if lookup == .first, let made = await lane.run({ [cache] in cache.lookup(facts.blobHash, recipe.key) }) {
            return Self.derivative(made, facts, recipe)
        }
        let poster = asset.mediaType == .movie ? Self.poster(try await posterFile(asset).path) : nil
        let (request, reoriented) = (recipe.request, recipe.reoriented)
        let (log, subject) = (options.log, "rendering \(recipe.key) of asset \(asset.id)")
        // A render whose asker has gone (its client hung up) while it waited for the lane is
        // not made: the lane's two threads are for those still waiting.
        let unwanted = { @Sendable in LibraryError(.cancelled, "The render was not wanted any more.") }
        return try await renders.run(unlessCancelledFirst: unwanted) { [imaging, cache, blobs] () throws(LibraryError) -> Derivative in
            if lookup == .inRender, let made = cache.lookup(facts.blobHash, recipe.key) { return Self.derivative(made, facts, recipe) }
            // An original's format is the one its import sniffed: its header is not read again.
            let source: ImageFile
            if let poster {
                source = poster
            } else if case .image(let format) = facts.format {
                do throws(StorageError) {
                    source = ImageFile(try blobs.localFile(facts.blobHash), format: format)
                } catch {
                    throw LibraryError(error)
                }
            } else {
                throw LibraryError(.invalidRequest, "Only a photo, or a movie's poster, is rendered.")
            }
            let rendered: RenderedImage
            do throws(ImagingError) {
                guard let output = try imaging.render(source, [request], reoriented: reoriented).first else {
                    throw ImagingError(.invalidRequest, "Nothing was rendered.")
                }
                rendered = output
            } catch {
                throw Library.reported(error, subject, log)
            }
            let file = try cache.store(facts.blobHash, recipe.key, rendered.data)
            return Derivative(path: file.path, mimeType: rendered.mimeType, size: rendered.size, etag: file.etag, kept: file.kept)
        }
    }

    private func posterFile(_ asset: Asset) async throws(LibraryError) -> DerivativeCache.CachedFile {
        let hash = asset.blobHash
        if let file = await lane.run({ [cache] in cache.lookup(hash, DerivativeKey.poster) }) { return file }
        guard case .movie(let container) = asset.format else { throw LibraryError(.invalidRequest, "Only movies have posters.") }
        let poster = try await makePoster(try await original(of: asset), container: container)
        return try await lane.run { [cache] () throws(LibraryError) in try cache.adopt(hash, DerivativeKey.poster, from: poster) }
    }
}

extension Derivatives {
    /// A poster as the renders read it: ffmpeg writes every poster as a JPEG
    /// (`FFmpegArguments.poster`), so its header is not read to find that out.
    static func poster(_ path: String) -> ImageFile { ImageFile(path, format: .jpeg) }

    /// An upright first frame of the movie, in the temp folder.
    func makePoster(_ path: String, container: ContainerFormat) async throws(LibraryError) -> String {
        let (poster, fd) = try await files { [staging] () throws(StorageError) in try staging.makeTemporaryFile(suffix: ".jpg") }
        close(fd)
        do throws(VideoError) {
            try await options.video.poster(path, format: container, to: poster)
        } catch {
            unlink(poster)
            throw Library.reported(error, "a movie's poster frame", options.log)
        }
        return poster
    }

    /// Forgets everything made of a deleted original.
    func removeAll(for hash: String) async {
        await lane.run { [cache] in cache.removeAll(for: hash) }
    }

    /// Forgets what was made of originals no row names (deleted by a server that does not keep
    /// this cache); how many originals' derivatives went.
    func removeAll(except known: Set<String>) async -> Int {
        await lane.run { [cache] in
            let stale = cache.hashes().filter { !known.contains($0) }
            for hash in stale { cache.removeAll(for: hash) }
            return stale.count
        }
    }
}

extension Asset {
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
