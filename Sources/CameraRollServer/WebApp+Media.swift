import Foundation
package import HTTPServer
package import Imaging
import Memo
import PhotoLibrary
package import Vocabulary

extension WebApp {
    func addMediaRoutes(to router: inout Router) {
        router.get("/media/:id/original") { request in try await original(request) }
        // What is already made is answered on the server's poll thread (from remembered asset
        // facts, and for thumbnails remembered bytes); anything to render goes the slow way.
        router.get("/media/:id/thumbnail", fast: readyThumbnail, thumbnail)
        router.get("/media/:id/display", fast: readyDisplay, { request in try await display(request, edited: false) })
        router.get("/media/:id/edited") { request in try await edited(request) }
        router.get("/media/:id/poster") { request in
            let owner = try mediaOwner(request)
            return try await derivative(request, immutable: true) { id throws(LibraryError) in
                try await library.derivatives.poster(of: id, owner: owner)
            }
        }
        router.get("/media/:id/video") { request in
            // For its holder, a capability's asset must still be in the library.
            _ = try await capability(request, kind: "video")
            return try await video(request)
        }
        router.get("/media/:id/strip") { request in
            let owner = try mediaOwner(request)
            return try await derivative(request, immutable: true) { id throws(LibraryError) in
                try await library.mediaJobs.scrubStrip(of: id, owner: owner)
            }
        }
        router.get("/media/:id/stream") { request in
            _ = try await capability(request, kind: "video")
            let owner = try mediaOwner(request)
            return try await answering { () throws(LibraryError) in
                .json(try await library.mediaJobs.streamLayout(of: request.parameter("id"), owner: owner))
            }
        }
        router.get("/media/:id/stream/:file") { request in
            _ = try await capability(request, kind: "video")
            return try await stream(request, owner: try mediaOwner(request))
        }
        router.get("/media/:id/trimmed") { request in try await trimmed(request) }
        router.get("/media/:id/compatible") { request in try await compatible(request) }
        router.get("/media/:id/without/:what") { request in try await without(request) }
    }

    /// The media of a pick that removes location or captions (`PickerConfiguration.removeLocation`):
    /// an image redacted (or re-encoded, which keeps no metadata), a movie without its tags.
    private func without(_ request: Request) async throws -> Response {
        let what = request.parameter("what")
        let removes = (location: what.hasPrefix("location"), captions: what.hasSuffix("captions"))
        guard ["location", "captions", "location-captions"].contains(what) else { throw HTTPError.notFound() }
        let asset = try await heldOrOwnedAsset(request, kind: what)
        return try await answering { () throws(LibraryError) in
            let made =
                asset.mediaType == .image
                ? try await library.derivatives.redactedImage(of: asset, removingLocation: removes.location, captions: removes.captions)
                : try await library.mediaJobs.rendition(of: asset.id, owner: nil)
            return Self.serve(made, immutable: true)
        }
    }

    /// A picker's `compatible` export: an image as a JPEG at its own size (for a format not every
    /// program reads), a movie as its H.264/AAC MP4 rendition whatever its codecs.
    private func compatible(_ request: Request) async throws -> Response {
        let asset = try await heldOrOwnedAsset(request, kind: "compatible")
        return try await answering { () throws(LibraryError) in
            let made =
                asset.mediaType == .movie
                ? try await library.mediaJobs.rendition(of: asset.id, owner: nil) : try await library.derivatives.compatibleImage(of: asset)
            return Self.serve(made, immutable: true)
        }
    }

    /// What a capability URL (a picker's result) was issued for, as it may be served now; or the
    /// edit an owner's URL names.
    private struct Capability {
        /// The asset, which is in the library: not trashed.
        var asset: Asset
        /// For an edit's media, the edit the URL was made of.
        var edit: Edit?
    }

    /// The capability a media request holds, or nil when it holds none: then it is the owner's,
    /// since the gate let it through, and the owner sees trashed assets too (to restore them).
    /// A capability shows its asset only while it is not in the trash (404, as if deleted),
    /// and an edit's media as it was when the URL was made, to whoever holds it.
    private func capability(_ request: Request, kind: String) async throws -> Capability? {
        guard access.holdsCapability(request, kind: kind) else { return nil }
        let asset = try await answering { () throws(LibraryError) in try await library.catalog.assetInLibrary(request.parameter("id")) }
        return Capability(asset: asset, edit: request.query["edit"].flatMap(Edit.init(capabilityText:)))
    }

    private func heldOrNamedEdit(_ request: Request, kind: String) async throws -> Capability? {
        if let held = try await capability(request, kind: kind) { return held }
        return try await namedEdit(request)
    }

    /// The edit an owner's URL names itself (`edit=`, written as a capability's): a pick's crop or
    /// trim that the Camera app shows, which the library does not keep. nil when it names none.
    private func namedEdit(_ request: Request) async throws -> Capability? {
        guard let text = request.query["edit"] else { return nil }
        guard let edit = Edit(capabilityText: text) else {
            throw HTTPError.badRequest(Self.badEdit.code, Self.badEdit.message)
        }
        let owner = try owner(request)
        let asset = try await answering { () throws(LibraryError) in
            let asset = try await library.catalog.visibleAsset(request.parameter("id"), to: owner)
            try edit.validate(for: asset)
            return asset
        }
        return Capability(asset: asset, edit: edit)
    }

    /// The asset a capability for this kind of media shows, or (for the owner, whom the gate let
    /// through without one) the asset the path names, their own trashed or not, or one shared with
    /// them.
    private func heldOrOwnedAsset(_ request: Request, kind: String) async throws -> Asset {
        if let held = try await capability(request, kind: kind) { return held.asset }
        let owner = try owner(request)
        return try await answering { () throws(LibraryError) in try await library.catalog.visibleAsset(request.parameter("id"), to: owner) }
    }

    private static let badEdit = HTTPError.badRequest(
        "invalid_edit", "edit: x,y,width,height for a crop, t1 to t3 (quarter turns) with m (mirrored) before it, start,end for a trim.")

    /// A photo's edit an owner's thumbnail URL names (nil: the photo as it is): the library's
    /// stored edit, which the asset's JSON writes into its URLs, so that the URL changes with it.
    private static func thumbnailEdit(_ request: Request) throws(HTTPError) -> ImageEdit? {
        guard let text = request.query["edit"] else { return nil }
        guard case .image(let edit)? = Edit(capabilityText: text) else { throw badEdit }
        return edit
    }

    /// A capability for an edit's media that names no edit of that kind; the server never makes one.
    private static let noEdit = HTTPError(403, "invalid_capability", "This link names no edit; ask for the picked item again.")

    static let immutable = "public, max-age=31536000, immutable"

    private func readyThumbnail(_ request: Request) throws -> Response? {
        let size = try request.integer("size") ?? 256
        let edit = try Self.thumbnailEdit(request)
        return library.derivatives.readyThumbnail(of: request.parameter("id"), size: size, edit: edit, owner: try mediaOwner(request))
            .map(Self.serveKept)
    }

    /// A derivative whose bytes the library keeps in memory is answered as it was the first time:
    /// its whole response, with a `PreparedBody`, is kept with the bytes.
    private static func serveKept(_ made: Derivative) -> Response {
        guard let kept = made.kept else { return serve(made, immutable: true) }
        return kept.made { bytes in
            var response = serve(made, immutable: true)
            response.body = .prepared(PreparedBody(bytes))
            return response
        }
    }

    private func thumbnail(_ request: Request) async throws -> Response {
        let size = try request.integer("size") ?? 256
        let (edit, owner) = (try Self.thumbnailEdit(request), try mediaOwner(request))
        return try await derivative(request, immutable: true) { id throws(LibraryError) in
            try await library.derivatives.thumbnail(of: id, size: size, edit: edit, owner: owner)
        }
    }

    private func readyDisplay(_ request: Request) throws -> Response? {
        let (box, owner) = (try DisplayBox(request), try mediaOwner(request))
        let made = library.derivatives.readyDisplay(of: request.parameter("id"), box: box.pixels, fit: box.fit, owner: owner)
        return made.map { Self.serve($0, immutable: true) }
    }

    /// The original never needs making: a database read finds it.
    private func original(_ request: Request) async throws -> Response {
        let asset = try await heldOrOwnedAsset(request, kind: "original")
        let path = try await answering { () throws(LibraryError) in try await library.originalFile(of: asset) }
        var response = Response.file(
            path, contentType: asset.mimeType, etag: "\"\(asset.blobHash)\"", cacheControl: Self.immutable)
        // Originals are downloads: never shown inline, whatever a browser would sniff.
        response.headers["Content-Disposition"] = ContentDisposition.attachment(asset.downloadFilename)
        return response
    }

    private func display(_ request: Request, edited: Bool) async throws -> Response {
        let (box, owner) = (try DisplayBox(request), try mediaOwner(request))
        // An edited render changes when the edit does, so it is revalidated; the others never change.
        return try await derivative(request, immutable: !edited) { id throws(LibraryError) in
            try await library.derivatives.display(of: id, box: box.pixels, fit: box.fit, edited: edited, owner: owner)
        }
    }

    /// The image as the asset's edit makes it now for the owner (or as the edit the URL names),
    /// as the edit a capability was made of for its holder. A URL naming its edit always shows the
    /// same picture, so it is kept for good.
    private func edited(_ request: Request) async throws -> Response {
        guard let capability = try await heldOrNamedEdit(request, kind: "edited") else { return try await display(request, edited: true) }
        guard case .image(let edit)? = capability.edit else { throw Self.noEdit }
        let box = try DisplayBox(request)
        return try await answering { () throws(LibraryError) in
            Self.serve(
                try await library.derivatives.display(of: capability.asset, edit: edit, box: box.pixels, fit: box.fit), immutable: true)
        }
    }

    /// The movie cut to the asset's trim now for the owner (the whole movie when it has none, the
    /// range the URL names when it names one), to the range a capability was made of for its holder.
    private func trimmed(_ request: Request) async throws -> Response {
        let movie: Derivative
        if let capability = try await heldOrNamedEdit(request, kind: "trimmed") {
            guard case .trim(let start, let end)? = capability.edit else { throw Self.noEdit }
            movie = try await answering { () throws(LibraryError) in
                try await library.mediaJobs.trimmedVideo(of: capability.asset, start: start, end: end)
            }
        } else {
            let owner = try owner(request)
            movie = try await answering { () throws(LibraryError) in
                try await library.mediaJobs.trimmedVideo(of: request.parameter("id"), owner: owner)
            }
        }
        return Response.file(movie.path, contentType: movie.mimeType, etag: movie.etag, cacheControl: "no-cache")
    }

    private func derivative(
        _ request: Request, immutable: Bool, _ make: (String) async throws(LibraryError) -> Derivative
    ) async throws -> Response {
        try await answering { () throws(LibraryError) in
            Self.serve(try await make(request.parameter("id")), immutable: immutable)
        }
    }

    static func serve(_ made: Derivative, immutable: Bool) -> Response {
        var response = Response.file(
            made.path, range: made.range, contentType: made.mimeType, etag: made.etag, cacheControl: immutable ? Self.immutable : "no-cache"
        )
        // The same bytes as the file, without opening it or copying them.
        if let kept = made.kept { response.body = .prepared(PreparedBody(kept.stable)) }
        if let size = made.size {
            response.headers["X-Image-Width"] = String(size.width)
            response.headers["X-Image-Height"] = String(size.height)
        }
        return response
    }

    private func video(_ request: Request) async throws -> Response {
        let (id, owner) = (request.parameter("id"), try mediaOwner(request))
        return try await answering { () throws(LibraryError) in
            // Asking starts the rendition in the background (never one that failed: only an
            // explicit retry does); the client polls the rendition URL meanwhile.
            let rendition = try await library.mediaJobs.startRendition(of: id, owner: owner)
            guard rendition == .ready else { return try Self.unfinished(rendition, id: id) }
            let video = try await library.mediaJobs.playableVideo(of: id, owner: owner)
            return Response.file(video.path, contentType: video.mimeType, etag: video.etag, cacheControl: Self.immutable)
        }
    }
}

extension WebApp {
    /// A movie played while nothing the browser plays exists yet (`StreamFile`): a segment or
    /// a part of one, made on first request, or the HLS playlist of them all. Of `owner`'s movie
    /// (nil: anyone's, for whoever holds a capability or a shared link to it).
    func stream(_ request: Request, owner: Owner?) async throws -> Response {
        let id = request.parameter("id")
        guard let file = StreamFile(request.parameter("file")) else {
            throw HTTPError(404, "not_found", "A stream has index.m3u8, <n>.mp4, <n>-init.mp4 and <n>.m4s.")
        }
        return try await answering { () throws(LibraryError) in
            switch file {
            case .playlist:
                let layout = try await library.mediaJobs.streamLayout(of: id, owner: owner)
                let carried = ["cap", "app"].compactMap { name in request.query[name].map { (name: name, value: $0) } }
                var response = Response(body: .bytes(Array(HLSPlaylist(layout: layout, carried: carried).text.utf8)))
                response.headers["Content-Type"] = HLSPlaylist.contentType
                response.headers["Cache-Control"] = "no-cache"
                return response
            case .segment(let index):
                return Self.serve(try await library.mediaJobs.streamSegment(of: id, index: index, owner: owner), immutable: true)
            case .part(let index, let part):
                return Self.serve(
                    try await library.mediaJobs.streamSegment(of: id, index: index, part: part, owner: owner), immutable: true)
            }
        }
    }
}

/// `w`, `h` (CSS pixels), `dpr` and `fit` from a display URL, as a box in device pixels.
package struct DisplayBox {
    package var pixels: PixelSize
    package var fit: Fit

    package init(_ request: Request) throws(HTTPError) {
        // Without a view size, the image at its own size (up to the largest side served): what
        // a picker's caller gets from the bare `editedImage` URL.
        if request.query["w"] == nil && request.query["h"] == nil && request.query["dpr"] == nil {
            pixels = PixelSize(width: Library.maxDisplaySide, height: Library.maxDisplaySide)
            fit = .contain
            return
        }
        guard let width = try request.integer("w", in: 1...8192), let height = try request.integer("h", in: 1...8192) else {
            throw HTTPError.badRequest("invalid_parameter", "w, h: give the view's size in CSS pixels.")
        }
        var scale = 1.0
        if let text = request.query["dpr"] {
            guard let value = Double(text), value.isFinite, (0.5...8).contains(value) else {
                throw HTTPError.badRequest("invalid_parameter", "dpr: a device pixel ratio between 0.5 and 8.")
            }
            scale = value
        }
        let fitName = request.query["fit"] ?? "contain"
        guard let fit = Fit(rawValue: fitName) else {
            throw HTTPError.badRequest("invalid_parameter", "fit: contain or cover.")
        }
        let box = PixelSize(width: Int((Double(width) * scale).rounded()), height: Int((Double(height) * scale).rounded()))
        guard box.width <= Library.maxDisplaySide, box.height <= Library.maxDisplaySide else {
            throw HTTPError.badRequest(
                "invalid_parameter", "w, h, dpr: the box may be at most \(Library.maxDisplaySide) device pixels a side.")
        }
        pixels = box
        self.fit = fit
    }
}
