import Credentials
import HTTPServer
import PhotoLibrary

/// Partner sharing: a person shares their whole library with another, to see and never to
/// change; the other lists it apart (`?partner=<id>` on `/api/assets` and `/api/timeline`).
extension WebApp {
    func addPartnerRoutes(to router: inout Router) {
        router.get("/api/partners") { request in .json(try await partnersJSON(of: try owner(request))) }
        router.post("/api/partners", body: .file(maxBytes: 4096)) { request in
            struct Body: Decodable { var user: String }
            let (owner, body) = (try owner(request), try Self.decode(Body.self, request.body))
            let partner = try person(named: body.user)
            try await answering { () async throws(LibraryError) in
                try await library.catalog.sharePartner(owner: owner, with: Owner(id: partner.id))
            }
            return .json(try await partnersJSON(of: owner))
        }
        router.put("/api/partners/:user", body: .file(maxBytes: 4096)) { request in
            struct Body: Decodable { var inTimeline: Bool }
            let (owner, sharer, body) = (
                try owner(request), Owner(id: try request.integer("user") ?? 0), try Self.decode(Body.self, request.body)
            )
            try await answering { () async throws(LibraryError) in
                try await library.catalog.showPartner(sharer, inLibraryOf: owner, body.inTimeline)
            }
            return .json(try await partnersJSON(of: owner))
        }
        router.delete("/api/partners/:user") { request in
            let (owner, partner) = (try owner(request), Owner(id: try request.integer("user") ?? 0))
            try await answering { () async throws(LibraryError) in try await library.catalog.unsharePartner(sharer: owner, partner: partner)
            }
            return .json(try await partnersJSON(of: owner))
        }
    }

    /// The partner a listing names (`partner=<id>`), nil for one's own library.
    func partner(_ request: Request) throws(HTTPError) -> Owner? {
        guard request.query["partner"] != nil else { return nil }
        return Owner(id: try request.integer("partner", in: 1...Int(Int32.max)) ?? 0)
    }

    private func partnersJSON(of owner: Owner) async throws -> PartnersJSON {
        let (mine, theirs, shown) = try await answering { () async throws(LibraryError) in
            (
                try await library.catalog.partners(sharedBy: owner), try await library.catalog.partners(sharingWith: owner),
                Set(try await library.catalog.partnersShown(in: owner))
            )
        }
        return PartnersJSON(
            sharingWith: mine.map { PersonNameJSON(id: $0.id, name: name(of: $0)) },
            sharedWithMe: theirs.map { SharedLibraryJSON(id: $0.id, name: name(of: $0), inTimeline: shown.contains($0)) })
    }
}

struct PartnersJSON: Encodable {
    /// Those one shares one's library with.
    var sharingWith: [PersonNameJSON]
    /// Those who share theirs with one, and whether one shows it inside one's own Library.
    var sharedWithMe: [SharedLibraryJSON]
}

struct SharedLibraryJSON: Encodable {
    var id: Int
    var name: String
    var inTimeline: Bool
}
