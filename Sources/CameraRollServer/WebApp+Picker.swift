import Foundation
import HTTPServer
import ImagePicker
import PhotoLibrary

extension WebApp {
    /// Picker sessions: whoever presents a picker creates a session, opens its page, and
    /// long-polls the session for the book's result `info` (or a cancel). The page reports the
    /// user's steps as events; the server builds the info from the library, never from the page.
    func addPickerRoutes(to router: inout Router) {
        router.post("/api/picker/sessions", body: .file(maxBytes: 16 * 1024)) { request in
            let configuration = try Self.decode(PickerConfiguration.self, request.body)
            let creator = access.isOwner(request) ? nil : request.remoteAddress
            let (id, session) = try await Self.picker { () throws(PickerError) in try await pickers.create(configuration, creator: creator)
            }
            var response = Response.json(SessionJSON(id: id, session: session), status: 201)
            response.headers["Location"] = "/api/picker/sessions/\(id)"
            return response
        }
        router.get("/api/picker/sessions/:id") { request in
            let id = request.parameter("id")
            let wait = Double(try request.integer("wait", in: 0...60) ?? 0)
            guard let session = await pickers.wait(id, seconds: wait) else { throw Self.noSession }
            return .json(SessionJSON(id: id, session: session))
        }
        router.post("/api/picker/sessions/:id/events", body: .file(maxBytes: 16 * 1024)) { request in
            let id = request.parameter("id")
            let body = try Self.decode(EventJSON.self, request.body)
            let event = try await event(from: body)
            let (session, actions) = try await Self.picker { () throws(PickerError) in try await pickers.handle(id, event) }
            return .json(SessionJSON(id: id, session: session, actions: actions.map(ActionJSON.init)))
        }
    }

    private static let noSession = HTTPError(404, "not_found", "There is no picker session with that id (it may have expired).")

    /// The event the page reports, with the info built from the asset it names.
    private func event(from body: EventJSON) async throws -> PickerSession.Event {
        switch body.event {
        case "open": return .open
        case "back": return .back
        case "cancel": return .cancel
        case "choose", "edited":
            guard let assetID = body.assetID else { throw HTTPError.badRequest("invalid_event", "assetID: name the asset chosen.") }
            let asset = try await answering { () throws(LibraryError) in try library.asset(assetID) }
            let info = info(for: asset, edited: body.event == "edited")
            return body.event == "choose" ? .chose(info) : .edited(info)
        default:
            throw HTTPError.badRequest("invalid_event", "event: open, choose, back, edited or cancel.")
        }
    }

    /// The book's info for an asset: URLs of the original and, when edited, of the edited media.
    /// They are capability URLs, so a caller that cannot see the library still gets these, bound to
    /// the edit as it is now.
    func info(for asset: Asset, edited: Bool) -> PickerInfo {
        let media = { (kind: String, edit: Edit?) in
            access.capabilities.sign("/media/\(asset.id)/\(kind)", assetID: asset.id, edit: edit?.capabilityText)
        }
        var metadata = ["width": String(asset.width), "height": String(asset.height), "mimeType": asset.mimeType]
        metadata["captureDate"] = asset.captureDate
        metadata["duration"] = asset.duration.map { String($0) }
        metadata["originalFilename"] = asset.originalFilename
        switch (asset.mediaType, edited ? asset.edit : nil) {
        case (.image, .crop(let rect)):
            return PickerInfo(
                mediaType: .image, assetID: asset.id, originalImage: media("original", nil), editedImage: media("edited", .crop(rect)),
                cropRect: CropRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height), metadata: metadata)
        case (.image, _):
            return PickerInfo(mediaType: .image, assetID: asset.id, originalImage: media("original", nil), metadata: metadata)
        case (.movie, .trim(let start, let end)):
            return PickerInfo(
                mediaType: .movie, assetID: asset.id, mediaURL: media("trimmed", .trim(start: start, end: end)),
                trim: TrimRange(start: start, end: end),
                metadata: metadata)
        case (.movie, _):
            return PickerInfo(mediaType: .movie, assetID: asset.id, mediaURL: media("video", nil), metadata: metadata)
        }
    }

    private static func picker<T: Sendable>(_ body: () async throws(PickerError) -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            let status =
                switch error.code {
                case "not_found": 404
                case "invalid_transition": 409
                case "too_many_sessions": 429
                default: 400
                }
            throw HTTPError(status, error.code, error.message)
        }
    }
}

struct EventJSON: Decodable {
    var event: String
    var assetID: String?
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
    var info: PickerInfo?
    var actions: [ActionJSON]?

    init(id: String, session: PickerSession, actions: [ActionJSON]? = nil) {
        self.id = id
        url = "/picker/\(id)"
        configuration = session.configuration
        self.actions = actions
        switch session.state {
        case .finished(let info):
            status = "finished"
            self.info = info
        case .cancelled: status = "cancelled"
        default: status = "pending"
        }
        state = session.state.name
    }
}
