import Credentials
import Foundation
import HTTPServer

extension WebApp {
    /// The sites the owner allows to open the picker, for the settings page and the chooser's
    /// "Always": the owner's own, never another site's (the gate sees to both).
    func addAppRoutes(to router: inout Router) {
        router.get("/api/apps") { _ in .json(AppListJSON(apps: access.apps.list().map(AppJSON.init))) }
        router.post("/api/apps", body: .file(maxBytes: 4096)) { request in
            struct Body: Decodable {
                var origin: String
                var name: String?
                var linkLifetime: Int?
            }
            let body = try Self.decode(Body.self, request.body)
            let app = try await answering { () async throws(CredentialsError) in
                let origin = try WebOrigin(body.origin)
                return try await access.apps.add(
                    origin, name: body.name ?? origin.authority, linkLifetime: body.linkLifetime ?? AllowedApps.defaultLinkLifetime)
            }
            return .json(AppJSON(app), status: 201)
        }
        router.delete("/api/apps/:id") { request in
            let key = request.parameter("id")
            guard let removed = try await answering({ () async throws(CredentialsError) in try await access.apps.remove(key) }) else {
                throw HTTPError.notFound("There is no allowed app with that id.")
            }
            return .json(AppJSON(removed))
        }
    }
}

struct AppJSON: Encodable {
    var id: String
    var origin: String
    var name: String
    var linkLifetime: Int
    var added: String

    init(_ app: AllowedApps.App) {
        id = app.id
        origin = app.origin.description
        name = app.name
        linkLifetime = app.linkLifetime
        added = ISO8601DateFormatter().string(from: app.added)
    }
}

struct AppListJSON: Encodable {
    var apps: [AppJSON]
}
