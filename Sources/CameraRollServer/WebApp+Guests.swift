import Credentials
import Foundation
import HTTPServer
import Imaging
import PhotoLibrary

/// What a shared link's guests see, without an account: the link's items as JSON
/// (`GET /api/shared/<token>`) and their media under the link's own path
/// (`/s/<token>/media/<id>/<kind>`), each request checked against the link as it is now, so that
/// a revoked or expired link stops at once and only its items open. A password is given once
/// per browser (`POST /api/shared/<token>/unlock`), guesses limited as sign-in's are. With
/// `removeLocation` no byte served carries a location: originals are redacted (a JPEG) or
/// re-encoded (any other image, a movie's rendition), and renders keep no metadata at all.
extension WebApp {
    func addGuestRoutes(to router: inout Router) {
        router.get("/api/shared/:token") { request in try await sharedItems(request) }
        router.post("/api/shared/:token/unlock", body: .file(maxBytes: 4096)) { request in try await unlock(request) }
        router.post("/api/shared/:token/assets", body: .file(maxBytes: library.options.maxFileBytes, sha256: true)) { request in
            try await guestUpload(request)
        }
        router.get("/s/:token/download") { request in Self.forGuests(try await guestArchive(request)) }
        router.get("/s/:token/media/:id/stream/:file") { request in
            let (_, asset) = try await guestAsset(request)
            return Self.forGuests(try await stream(request, owner: asset.owner))
        }
        router.get("/s/:token/media/:id/:kind") { request in Self.forGuests(try await guestMedia(request)) }
    }

    /// The link a token names, while it opens: 404 for a token this library did not make or a
    /// link revoked, 410 once it expired.
    private func liveLink(_ request: Request) async throws -> ShareLink {
        guard let id = access.shareTokens.linkID(of: request.parameter("token")) else { throw Access.unknownLink }
        let link: ShareLink
        do {
            link = try await library.catalog.link(id)
        } catch  where error.code == .notFound {
            throw Access.unknownLink
        } catch {
            throw ClientError(error) ?? error
        }
        guard link.isLive() else { throw HTTPError(410, "link_expired", "This link has expired. Ask whoever sent it for a new one.") }
        return link
    }

    /// The link, once its password (if it has one) was given in this browser.
    private func openLink(_ request: Request) async throws -> ShareLink {
        let link = try await liveLink(request)
        if let password = link.password,
            !access.shareTokens.unlocks(Access.cookie(ShareTokens.cookieName(link.id), in: request), link.id, password: password)
        {
            throw HTTPError(401, "password_required", "This link asks for a password.")
        }
        return link
    }

    /// The item a guest's media request names, when the open link shows it.
    private func guestAsset(_ request: Request) async throws -> (ShareLink, Asset) {
        let link = try await openLink(request)
        let asset = try await answering { () async throws(LibraryError) in
            try await library.catalog.linkedAsset(request.parameter("id"), in: link)
        }
        return (link, asset)
    }

    private func sharedItems(_ request: Request) async throws -> Response {
        let link = try await openLink(request)
        let limit = try request.integer("limit", in: 1...AssetQuery.maxLimit) ?? 200
        let (page, title) = try await answering { () async throws(LibraryError) in
            (try await library.catalog.linkedAssets(link, cursor: request.query["cursor"], limit: limit), try await linkTitle(link))
        }
        let base = "/s/\(request.parameter("token"))/media"
        return .json(
            SharedLinkJSON(
                title: title, sharedBy: name(of: link.owner),
                expiresAt: Self.expiry(of: link),
                removeLocation: link.options.removeLocation, allowDownload: link.options.allowDownload,
                allowUpload: link.options.allowUpload,
                items: page.assets.map { GuestItemJSON(asset: $0, base: base, download: link.options.allowDownload) },
                nextCursor: page.nextCursor))
    }

    /// A link's password, given once: the browser keeps a cookie proving it until the link
    /// expires (a month at most), for this link alone.
    private func unlock(_ request: Request) async throws -> Response {
        let link = try await liveLink(request)
        struct Body: Decodable { var password: String }
        let body = try Self.decode(Body.self, request.body)
        guard let stored = link.password else { return .json(["unlocked": true]) }
        guard let hash = try? JSONDecoder().decode(PasswordHash.self, from: Data(stored.utf8)) else {
            throw HTTPError(500, "damaged_link", "This link's password is damaged; ask whoever sent it for a new link.")
        }
        guard try await guess(body.password, against: hash, from: request.remoteAddress) else {
            throw HTTPError(401, "wrong_password", "That is not this link's password.")
        }
        let month = 30 * 86_400
        let lifetime = link.expires.map { min(month, max(1, $0 - Int(Date().timeIntervalSince1970))) } ?? month
        let cookie = access.shareTokens.unlocking(link.id, password: stored)
        var response = Response.json(["unlocked": true])
        response.headers["Set-Cookie"] = "\(cookie.name)=\(cookie.value); Path=/; Max-Age=\(lifetime); HttpOnly; Secure; SameSite=Strict"
        return response
    }

    /// A guest's photo or video, through an album link that takes them: it lands in the link
    /// owner's library (their quota counts it) and in the album, marked as from the link.
    private func guestUpload(_ request: Request) async throws -> Response {
        let link = try await openLink(request)
        guard link.albumID != nil, link.options.allowUpload else {
            throw HTTPError(403, "upload_not_allowed", "This link shows its items; it does not take new ones.")
        }
        guard let body = request.body, body.size > 0 else {
            throw HTTPError(422, "empty", "The file is empty; send its bytes as the request body.")
        }
        try await requireRoom(for: body.size, owner: link.owner)
        let name = request.headers["X-Filename"].map { $0.removingPercentEncoding ?? $0 }
        let asset = try await answering { () async throws(LibraryError) in
            let result = try await library.ingest.importUpload(
                temporaryFile: body.path, sha256: body.sha256, originalFilename: name, source: .upload, owner: link.owner)
            return try await library.catalog.addFromLink(result.asset.id, link: link, isNew: !result.isDuplicate)
        }
        let base = "/s/\(request.parameter("token"))/media"
        return .json(GuestItemJSON(asset: asset, base: base, download: link.options.allowDownload), status: 201)
    }

    private func guestMedia(_ request: Request) async throws -> Response {
        let (link, asset) = try await guestAsset(request)
        let (id, owner) = (asset.id, asset.owner)
        var shownEdit: ImageEdit?
        if case .image(let edit) = asset.edit { shownEdit = edit }
        switch request.parameter("kind") {
        case "thumbnail":
            let size = try request.integer("size") ?? 256
            return try await answering { () async throws(LibraryError) in
                Self.serve(try await library.derivatives.thumbnail(of: id, size: size, edit: shownEdit, owner: owner), immutable: false)
            }
        case "display":
            let box = try DisplayBox(request)
            return try await answering { () async throws(LibraryError) in
                let made =
                    if let shownEdit {
                        try await library.derivatives.display(of: asset, edit: shownEdit, box: box.pixels, fit: box.fit)
                    } else {
                        try await library.derivatives.display(of: id, box: box.pixels, fit: box.fit, owner: owner)
                    }
                return Self.serve(made, immutable: false)
            }
        case "poster":
            return try await answering { () async throws(LibraryError) in
                Self.serve(try await library.derivatives.poster(of: id, owner: owner), immutable: false)
            }
        case "stream":
            return try await answering { () async throws(LibraryError) in
                .json(try await library.mediaJobs.streamLayout(of: id, owner: owner))
            }
        case "video":
            return try await answering { () async throws(LibraryError) in
                let movie =
                    link.options.removeLocation
                    ? try await library.mediaJobs.rendition(of: id, owner: owner)
                    : try await library.mediaJobs.playableVideo(of: id, owner: owner)
                return Self.serve(movie, immutable: false)
            }
        case "original":
            guard link.options.allowDownload else {
                throw HTTPError(403, "download_not_allowed", "This link shows its items without their originals.")
            }
            return try await guestOriginal(asset, removingLocation: link.options.removeLocation)
        default:
            throw HTTPError.notFound("A shared item has thumbnail, display, poster, stream, video and original.")
        }
    }

    /// Everything a link shows as one ZIP archive (10,000 items at most): originals, or with
    /// `removeLocation` the same copies a single download gives, made before the archive starts
    /// (its length is announced first), so a movie's rendition is waited for.
    private func guestArchive(_ request: Request) async throws -> Response {
        let link = try await openLink(request)
        guard link.options.allowDownload else {
            throw HTTPError(403, "download_not_allowed", "This link shows its items without their originals.")
        }
        let (title, items) = try await answering { () async throws(LibraryError) in
            var items: [(asset: Asset, copy: Derivative?)] = []
            var cursor: String?
            repeat {
                let page = try await library.catalog.linkedAssets(link, cursor: cursor, limit: AssetQuery.maxLimit)
                for asset in page.assets {
                    guard items.count < Library.maxBatch else {
                        throw LibraryError(.tooLarge, "This link shows more than \(Library.maxBatch) items; download them one by one.")
                    }
                    var files = [asset]
                    if let movie = asset.livePhotoMovie { files.append(try await library.catalog.asset(movie, owner: asset.owner)) }
                    for file in files {
                        items.append((file, link.options.removeLocation ? try await withoutLocation(file) : nil))
                    }
                }
                cursor = page.nextCursor
            } while cursor != nil
            return (try await linkTitle(link), items)
        }
        let download = try await answering { () async throws(LibraryError) in
            try await library.downloads.archive(named: "\(title ?? "Shared Photos").zip", of: items)
        }
        return archive(download)
    }

    /// An album link's title: the album's; nil for chosen items.
    private func linkTitle(_ link: ShareLink) async throws(LibraryError) -> String? {
        guard let album = link.albumID else { return nil }
        return try await library.catalog.album(album, owner: link.owner).title
    }

    /// An item's bytes without its location: a JPEG's own with it taken out, any other image as
    /// a JPEG, a movie as its rendition.
    private func withoutLocation(_ asset: Asset) async throws(LibraryError) -> Derivative {
        asset.mediaType == .image
            ? try await library.derivatives.redactedImage(of: asset, removingLocation: true, captions: false)
            : try await library.mediaJobs.rendition(of: asset.id, owner: asset.owner)
    }

    /// An original as a download; without its location when the link says so: a JPEG's own
    /// bytes with the location taken out, any other image as a JPEG, a movie as its rendition
    /// (the file's name then says what it is).
    private func guestOriginal(_ asset: Asset, removingLocation: Bool) async throws -> Response {
        var response: Response
        var filename = asset.downloadFilename
        if removingLocation {
            let made = try await answering { () async throws(LibraryError) in try await withoutLocation(asset) }
            response = Self.serve(made, immutable: false)
            if made.mimeType != asset.mimeType {
                filename = (filename as NSString).deletingPathExtension + (made.mimeType == "image/jpeg" ? ".jpg" : ".mp4")
            }
        } else {
            let path = try await answering { () async throws(LibraryError) in try await library.originalFile(of: asset) }
            response = Response.file(path, contentType: asset.mimeType, etag: "\"\(asset.blobHash)\"")
        }
        response.headers["Content-Disposition"] = ContentDisposition.attachment(filename)
        return response
    }

    /// A guest's answer is asked for again each time (a 304 when nothing changed), so that a
    /// link revoked or expired stops at once, not when a browser's cache lets go.
    private static func forGuests(_ response: Response) -> Response {
        var response = response
        if response.status < 400 { response.headers["Cache-Control"] = "private, no-cache" }
        response.headers["Referrer-Policy"] = "no-referrer"
        return response
    }
}

/// What a shared link shows its guests: never where a photo was taken, nor anything of the
/// owner's library beyond the link's items.
struct SharedLinkJSON: Encodable {
    /// The album's title; nil for a link to chosen items.
    var title: String?
    var sharedBy: String
    var expiresAt: String?
    var removeLocation: Bool
    var allowDownload: Bool
    var allowUpload: Bool
    var items: [GuestItemJSON]
    var nextCursor: String?
}

/// An item as a guest sees it: its kind, size and date, and its media under the link's path.
struct GuestItemJSON: Encodable {
    let asset: Asset
    /// `/s/<token>/media`.
    let base: String
    let download: Bool

    func encode(to encoder: any Encoder) throws {
        var json = JSONFields(encoder)
        let media = "\(base)/\(asset.id)"
        // A photo's edit is shown; named in its URLs, so that they change when it does.
        var edit = ""
        if case .image = asset.edit, let text = asset.edit?.capabilityText { edit = "edit=\(text)" }
        let movie = asset.mediaType == .movie
        try json.put("id", asset.id)
        try json.put("mediaType", asset.mediaType.rawValue)
        try json.put("width", asset.width)
        try json.put("height", asset.height)
        try json.put("duration", asset.duration)
        try json.put("captureDate", asset.captureDate)
        try json.put("originalFilename", download ? asset.downloadFilename : nil)
        try json.put(
            "urls",
            JSONObject { json in
                try json.put("thumbnail256", "\(media)/thumbnail?size=256\(edit.isEmpty ? "" : "&" + edit)")
                try json.put("thumbnail512", "\(media)/thumbnail?size=512\(edit.isEmpty ? "" : "&" + edit)")
                try json.put("display", "\(media)/display\(edit.isEmpty ? "" : "?" + edit)")
                try json.put("poster", movie ? "\(media)/poster" : nil)
                try json.put("stream", movie ? "\(media)/stream" : nil)
                try json.put("video", movie ? "\(media)/video" : nil)
                try json.put("original", download ? "\(media)/original" : nil)
            })
        try json.put("livePhotoVideo", asset.livePhotoMovie.map { "\(base)/\($0)/video" })
    }
}
