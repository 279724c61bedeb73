import Credentials
import Foundation
import HTTPServer
import ImagePicker
import Imaging
import PhotoLibrary
import Vocabulary

extension WebApp {
    /// Picker sessions: whoever presents a picker creates a session, opens its page, and
    /// long-polls the session for the book's result `info` (or a cancel). The page reports the
    /// user's steps as events; the server builds the info from the library, never from the page.
    ///
    /// Another site's page may use this API for itself when its origin is an allowed app (CORS,
    /// no credentials): it creates sessions, reads and cancels its own. The chooser's popup, a
    /// page of ours, creates the session for the site it verified instead (`client`), after the
    /// owner allowed that site.
    func addPickerRoutes(to router: inout Router) {
        router.post("/api/picker/sessions", body: .file(maxBytes: 16 * 1024)) { request in
            var configuration = try Self.decode(PickerConfiguration.self, request.body)
            let client = try await client(for: request)
            // Privacy per pick is on unless the owner's own page (or program) says otherwise.
            let stranger = client != nil || !access.isOwner(request)
            configuration.removeLocation = configuration.removeLocation ?? stranger
            configuration.removeCaptions = configuration.removeCaptions ?? stranger
            let creator = access.isOwner(request) ? nil : StoredPickerSessions.creator(of: request.remoteAddress)
            // A person signed in presents it for themselves (`cameraroll pick --user`): theirs
            // from the start, as it would be once they acted on it.
            let taker = client == nil && CrossSite(request) == nil && access.session(of: request) != nil ? access.owner(request) : nil
            let (id, session) = try await answering { () throws(PickerError) in
                try await pickers.create(configuration, creator: creator, client: client, owner: taker)
            }
            var response = Response.json(SessionJSON(id: id, session: session, client: client), status: 201)
            response.headers["Location"] = "/api/picker/sessions/\(id)"
            return response
        }
        router.get("/api/picker/sessions/:id") { request in
            let id = request.parameter("id")
            let wait = Double(try request.integer("wait", in: 0...60) ?? 0)
            let client = try await caller(request, of: id)
            guard let session = try await answering({ () throws(PickerError) in try await pickers.wait(id, seconds: wait) }) else {
                throw Self.noSession
            }
            return .json(SessionJSON(id: id, session: session, client: client))
        }
        router.post("/api/picker/sessions/:id/events", body: .file(maxBytes: 16 * 1024)) { request in
            let id = request.parameter("id")
            let body = try Self.decode(EventJSON.self, request.body)
            let sessionClient = try await caller(request, of: id)
            if CrossSite(request) != nil && body.event != "cancel" {
                throw HTTPError(
                    403, "cross_origin", "A site may only cancel the pickers it opened; the user's steps come from the picker's page.")
            }
            // What may be picked, and what the caller's URLs give, are the session's to say.
            guard let configuration = try await answering({ () throws(PickerError) in try await pickers.configuration(of: id) }) else {
                throw Self.noSession
            }
            // Another site's page (its cancel) is nobody's, even from this computer.
            let owner = CrossSite(request) == nil ? access.owner(request) : nil
            let client = body.event == "cancel" ? sessionClient : try pickingClient(sessionClient, owner: owner)
            let event = try await event(
                from: body, client: client, edit: body.event == "edited" ? try Self.pickedEdit(request.body) : nil,
                configuration: configuration, owner: owner)
            let (session, actions) = try await answering { () throws(PickerError) in try await pickers.handle(id, event, by: owner) }
            return .json(SessionJSON(id: id, session: session, client: client, actions: actions.map(ActionJSON.init)))
        }
        // CORS preflights; the gate has let only allowed sites this far, and the answer's
        // headers are CrossSite.finish's.
        for pattern in ["/api/picker/sessions", "/api/picker/sessions/:id", "/api/picker/sessions/:id/events"] {
            router.add("OPTIONS", pattern) { _ in Response(status: 204) }
        }
    }

    /// The site a new session is for: the allowed app whose page asks itself, or the one the
    /// owner's chooser page names, allowed before or now, once.
    private func client(for request: Request) async throws -> AllowedApps.App? {
        if let site = CrossSite(request) {
            guard let origin = site.origin, let app = access.apps.anyApp(origin: origin) else {
                throw HTTPError(
                    403, "app_not_allowed",
                    "Only sites the owner keeps among the allowed apps may open a picker themselves; others go through the chooser.")
            }
            return app
        }
        guard let asked = try Self.decode(ClientRequestJSON.self, request.body).client else { return nil }
        guard access.isOwner(request), let owner = access.owner(request) else {
            throw HTTPError(403, "owner_only", "Only the owner decides which sites may use the picker.")
        }
        let origin: WebOrigin
        do {
            origin = try WebOrigin(asked.origin)
        } catch {
            throw HTTPError.badRequest(error.code.description, error.message)
        }
        if let app = access.apps.app(origin: origin, owner: owner.id) { return app }
        guard asked.once == true else {
            throw HTTPError(403, "app_not_allowed", "\(origin.authority) is not among the sites allowed to use the picker.")
        }
        return try await answering { () async throws(CredentialsError) in
            try await access.apps.allowOnce(
                origin, duration: StoredPickerSessions.lifetime + Double(AllowedApps.defaultLinkLifetime), owner: owner.id)
        }
    }

    /// The session's site, after checking that a page of another site asks about its own
    /// session only (any other is, to it, not there).
    private func caller(_ request: Request, of id: String) async throws -> AllowedApps.App? {
        let client = try await answering { () throws(PickerError) in try await pickers.client(of: id) }
        if let site = CrossSite(request), site.origin == nil || client?.origin != site.origin { throw Self.noSession }
        return client
    }

    /// The app a person's pick gives links under (`AllowedApps.forPicker`): a site that another
    /// person allowed is not theirs to pick for until they allow it too.
    private func pickingClient(_ client: AllowedApps.App?, owner: Owner?) throws(HTTPError) -> AllowedApps.App? {
        guard let client, let owner else { return client }
        guard let app = access.apps.forPicker(client, owner: owner.id) else {
            throw HTTPError(
                403, "app_not_allowed",
                "\(client.origin.authority) is not among the sites you allow to use your picker; allow it in Settings first.")
        }
        return app
    }

    private static let noSession = HTTPError(404, "not_found", "There is no picker session with that id (it may have expired).")

    /// The event the page reports, with the info built from the asset it names and, for
    /// `edited`, the edit the user made in the picker.
    /// Whoever picks (`owner`) picks from their own library.
    private func event(
        from body: EventJSON, client: AllowedApps.App?, edit: Edit?, configuration session: PickerConfiguration, owner: Owner?
    ) async throws -> PickerSession.Event {
        // The picker's switch: what the user chose for this pick, starting from the session's.
        var configuration = session
        configuration.removeLocation = body.removeLocation ?? session.removeLocation
        configuration.removeCaptions = body.removeCaptions ?? session.removeCaptions
        switch body.event {
        case "open": return .open
        case "back": return .back
        case "cancel": return .cancel
        case "choose", "edited":
            guard let assetID = body.assetID else { throw HTTPError.badRequest("invalid_event", "assetID: name the asset chosen.") }
            let asset = try await offered(assetID, by: configuration, owner: owner)
            try await answering { () throws(LibraryError) in try edit?.validate(for: asset) }
            let info = info(for: asset, edit: edit, configuration: configuration, client: client)
            return body.event == "choose" ? .chose(info) : .edited(info)
        case "add":
            guard let ids = body.assetIDs, (1...100).contains(ids.count) else {
                throw HTTPError.badRequest("invalid_event", "assetIDs: name the items added, in order.")
            }
            var infos: [PickerInfo] = []
            for id in ids {
                infos.append(
                    info(
                        for: try await offered(id, by: configuration, owner: owner), edit: nil, configuration: configuration, client: client
                    ))
            }
            return .added(infos)
        default:
            throw HTTPError.badRequest("invalid_event", "event: open, choose, add, back, edited or cancel.")
        }
    }

    /// The asset a page names, if the picker offers it: one of its source's (a library item, a
    /// Camera Roll item for that source, a capture for the camera) that its filter admits, and
    /// not the movie half of a Live Photo. Any other is, to this picker, not there, whatever a
    /// page says. (A media type it does not offer is the session's to refuse.)
    private func offered(_ id: String, by configuration: PickerConfiguration, owner: Owner?) async throws -> Asset {
        // A step nobody in particular takes (another site's) picks nothing.
        guard let owner else { throw Self.notOffered }
        let asset = try await answering { () throws(LibraryError) in try await library.catalog.asset(id, owner: owner) }
        let inSource =
            switch configuration.sourceType {
            case .photoLibrary: !asset.isUnsaved
            case .savedPhotosAlbum: asset.inCameraRoll
            case .camera: asset.source == .camera
            }
        let isOffered =
            inSource && asset.livePhotoStill == nil && configuration.filter.map { $0.admits(asset.kind) } != false
        guard asset.trashedDate == nil, isOffered else { throw Self.notOffered }
        return asset
    }

    private static let notOffered = HTTPError(404, "not_found", "This picker does not offer that item; choose one it shows.")

    /// The edit an `edited` event brings (`{}` for none). It belongs to this pick: the library's
    /// asset never changes, as UIImagePickerController never changes the photo library.
    private static func pickedEdit(_ body: RequestBody?) throws(HTTPError) -> Edit? {
        guard let body, let data = FileManager.default.contents(atPath: body.path),
            let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let edit = fields["edit"]
        else {
            throw HTTPError.badRequest("invalid_event", "edit: send the edit made in the picker ({} for none).")
        }
        let parsed = try EditRequest.parse(json: edit)
        // Move and Scale crops; turning and mirroring are the library's editor's.
        if case .image(let picked)? = parsed, picked.reorientation != .none {
            throw HTTPError.badRequest("invalid_edit", "rotation: the picker crops a photo; rotate or flip it in the library.")
        }
        return parsed
    }

    /// The book's info for an asset: URLs of the original and, when edited, of the edited media.
    /// They are capability URLs, so a caller that cannot see the library still gets these, bound to
    /// the pick's edit and, for another site, to its app and its apps's link lifetime. The
    /// `compatible` preset gives a JPEG for an image in a format not every program reads, and a
    /// movie as an H.264/AAC MP4 (UIKit's compatible export), whatever the original's codecs.
    /// `metadata.mimeType` is the type of what the item's link serves.
    func info(for asset: Asset, edit: Edit?, configuration: PickerConfiguration, client: AllowedApps.App?) -> PickerInfo {
        let preset = configuration.exportPreset
        let lifetime = client.map { TimeInterval($0.linkLifetime) } ?? CapabilityURLs.lifetime
        let media = { (kind: String, edit: Edit?) in
            access.capabilities.sign(
                "/media/\(asset.id)/\(kind)", assetID: asset.id, edit: edit?.capabilityText, app: client?.id, lifetime: lifetime)
        }
        let without = Self.removal(configuration)
        let converts = preset == .compatible && asset.mediaType == .image && !asset.format.isWidelyReadImage
        let original = without.map { media("without/\($0)", nil) } ?? (converts ? media("compatible", nil) : media("original", nil))
        let becomesJPEG = asset.mediaType == .image && (converts || without != nil)
        var metadata = [
            "width": String(asset.width), "height": String(asset.height), "mimeType": becomesJPEG ? "image/jpeg" : asset.mimeType,
        ]
        metadata["captureDate"] = asset.captureDate
        metadata["duration"] = asset.duration.map { String($0) }
        metadata["originalFilename"] = asset.originalFilename
        switch (asset.mediaType, edit) {
        case (.image, .image(let picked)):
            // The picker's edits are crops (Move and Scale): the event refuses any other.
            let rect = picked.crop ?? PixelRect(size: asset.size)
            return PickerInfo(
                mediaType: .image, assetID: asset.id, originalImage: original, editedImage: media("edited", .crop(rect)),
                cropRect: CropRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height), metadata: metadata)
        case (.image, _):
            let livePhoto = asset.livePhotoMovie.flatMap { movie in
                configuration.livePhotos
                    ? LivePhotoURLs(imageURL: original, movieURL: movieURL(movie, preset, without, client, lifetime)) : nil
            }
            return PickerInfo(mediaType: .image, assetID: asset.id, originalImage: original, livePhoto: livePhoto, metadata: metadata)
        case (.movie, .trim(let start, let end)):
            // A trimmed clip is always cut into a new MP4.
            metadata["mimeType"] = "video/mp4"
            return PickerInfo(
                mediaType: .movie, assetID: asset.id, mediaURL: media("trimmed", .trim(start: start, end: end)),
                trim: TrimRange(start: start, end: end),
                metadata: metadata)
        case (.movie, _):
            if without != nil || preset == .compatible { metadata["mimeType"] = "video/mp4" }
            return PickerInfo(
                mediaType: .movie, assetID: asset.id, mediaURL: movieURL(asset.id, preset, without, client, lifetime), metadata: metadata)
        }
    }

    /// A movie's URL for the caller under the preset and what the pick removes: a picked movie's,
    /// or a Live Photo's (its own asset, signed for as the still is).
    private func movieURL(
        _ movie: String, _ preset: PickerConfiguration.ExportPreset, _ without: String?, _ client: AllowedApps.App?,
        _ lifetime: TimeInterval
    ) -> String {
        let kind = without.map { "without/\($0)" } ?? (preset == .current ? "original" : "compatible")
        return access.capabilities.sign("/media/\(movie)/\(kind)", assetID: movie, edit: nil, app: client?.id, lifetime: lifetime)
    }

    /// What a pick's media leave out, as the `without` media route spells it; nil for nothing.
    static func removal(_ configuration: PickerConfiguration) -> String? {
        switch (configuration.removeLocation == true, configuration.removeCaptions == true) {
        case (true, true): "location-captions"
        case (true, false): "location"
        case (false, true): "captions"
        case (false, false): nil
        }
    }
}

/// The site the owner's chooser page asks a session for: `once` when the owner allowed it
/// for this pick only.
struct ClientRequestJSON: Decodable {
    struct Client: Decodable {
        var origin: String
        var once: Bool?
    }
    var client: Client?
}

struct EventJSON: Decodable {
    var event: String
    var assetID: String?
    /// The items of an `add`, in the user's order.
    var assetIDs: [String]?
    /// The picker's privacy switch at the moment of the pick.
    var removeLocation: Bool?
    var removeCaptions: Bool?
}

struct ActionJSON: Encodable {
    var action: String
    var assetID: String?

    init(_ action: PickerSession.Action) {
        switch action {
        case .showLibrary: self.action = "showLibrary"
        case .showCamera: self.action = "showCamera"
        case .showEditor(let id, _):
            self.action = "showEditor"
            assetID = id
        case .deliver: self.action = "deliver"
        case .deliverCancel: self.action = "deliverCancel"
        }
    }
}

struct SessionJSON: Encodable {
    var id: String
    var url: String
    /// pending, finished or cancelled.
    var status: String
    var state: String
    var configuration: PickerConfiguration
    /// The book's info of the item picked; of the first, for a multiple selection.
    var info: PickerInfo?
    /// One info per item picked, in the user's order (PHPicker's results).
    var results: [PickerInfo]?
    var actions: [ActionJSON]?
    /// The site the picker is for, when it is another site: the page names it to the user.
    var client: ClientJSON?

    struct ClientJSON: Encodable {
        var origin: String
        var name: String
    }

    init(id: String, session: PickerSession, client: AllowedApps.App?, actions: [ActionJSON]? = nil) {
        self.id = id
        url = "/picker/\(id)"
        self.client = client.map { ClientJSON(origin: $0.origin.description, name: $0.name) }
        configuration = session.configuration
        self.actions = actions
        switch session.state {
        case .finished(let results):
            status = "finished"
            info = results.first
            self.results = results
        case .cancelled: status = "cancelled"
        default: status = "pending"
        }
        state = session.state.name
    }
}
