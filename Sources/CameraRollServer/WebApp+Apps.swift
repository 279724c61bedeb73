import Credentials
import Foundation
import HTTPServer

extension WebApp {
    /// The sites a person allows to open their picker, for the settings page and the chooser's
    /// "Always": each person's own, never another site's (the gate sees to that).
    func addAppRoutes(to router: inout Router) {
        router.get("/api/apps") { request in
            .json(AppListJSON(apps: access.apps.list(owner: try owner(request).id).map(AppJSON.init)))
        }
        router.post("/api/apps", body: .file(maxBytes: 4096)) { request in
            struct Body: Decodable {
                var origin: String
                var name: String?
                var linkLifetime: Int?
            }
            let body = try Self.decode(Body.self, request.body)
            let owner = try owner(request)
            let app = try await answering { () async throws(CredentialsError) in
                let origin = try WebOrigin(body.origin)
                return try await access.apps.add(
                    origin, name: body.name ?? origin.authority, linkLifetime: body.linkLifetime ?? AllowedApps.defaultLinkLifetime,
                    owner: owner.id)
            }
            return .json(AppJSON(app), status: 201)
        }
        router.delete("/api/apps/:id") { request in
            let (key, owner) = (request.parameter("id"), try owner(request))
            guard
                let removed = try await answering({ () async throws(CredentialsError) in
                    try await access.apps.remove(key, owner: owner.id)
                })
            else {
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
