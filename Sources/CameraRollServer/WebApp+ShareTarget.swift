import Foundation
import HTTPServer
import PhotoLibrary

/// Sharing into CameraRoll from any app: the web app manifest's `share_target` has the phone
/// send the photos and videos as a form to `/share`, which imports them here (whether or not the
/// service worker runs) and sends the person to Recently Added, told what came. The phone's
/// browser launches it itself, so it carries no CSRF token; `Access.isShareLaunch` admits it.
extension WebApp {
    static let sharePath = "/share"
    /// The form field the manifest names for the files.
    static let sharedFilesField = "media"

    func addShareTargetRoutes(to router: inout Router) {
        // Where signing in leads after a share that found nobody signed in: its files did not
        // come through, and the Library says to share them again.
        router.get(Self.sharePath) { _ in .seeOther("/library?shared=again#/recent", saying: "Share it again.") }
        router.post(Self.sharePath, body: .file(maxBytes: library.options.maxFileBytes)) { request in try await receiveShare(request) }
    }

    private func receiveShare(_ request: Request) async throws -> Response {
        let owner = try owner(request)
        guard let body = request.body, let boundary = request.headers["Content-Type"].flatMap(MultipartForm.boundary(ofContentType:))
        else { throw HTTPError(415, "unsupported_media_type", "A share is sent as multipart/form-data.") }
        let form = try await forms.run { () throws(HTTPError) in try MultipartForm(path: body.path, size: body.size, boundary: boundary) }
        var (added, refused) = (0, 0)
        var reason: String?
        for part in form.parts where part.name == Self.sharedFilesField && part.filename != nil {
            do {
                try await requireRoom(for: part.range.count, owner: owner)
                _ = try await answering { () async throws(LibraryError) in
                    try await library.ingest.importFile(
                        at: body.path, range: part.range, originalFilename: part.filename, source: .upload, owner: owner)
                }
                added += 1
            } catch {
                refused += 1
                reason =
                    reason ?? "\(part.filename ?? "A file"): \((error as? any HTTPResponseError)?.message ?? "it could not be imported.")"
            }
        }
        var landing = URLComponents()
        landing.path = "/library"
        landing.queryItems =
            [URLQueryItem(name: "shared", value: String(added)), URLQueryItem(name: "refused", value: String(refused))]
            + (reason.map { [URLQueryItem(name: "reason", value: $0)] } ?? [])
        landing.fragment = "/recent"
        let location = landing.string ?? "/library#/recent"
        return .seeOther(location, saying: "See \(location)")
    }
}
