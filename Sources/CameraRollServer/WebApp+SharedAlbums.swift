import Credentials
import HTTPServer
import PhotoLibrary

/// Albums shared with other people of the library: their owner names members, viewers or
/// editors (`Catalog.share`); a member sees the album and its items, an editor adds their own
/// and takes them out again, and anyone may leave.
extension WebApp {
    func addSharedAlbumRoutes(to router: inout Router) {
        router.get("/api/albums/:id/members") { request in
            let (id, owner) = (request.parameter("id"), try owner(request))
            let members = try await answering { () async throws(LibraryError) in try await library.catalog.members(of: id, owner: owner) }
            return .json(MembersJSON(members: members.map(memberJSON)))
        }
        router.post("/api/albums/:id/members", body: .file(maxBytes: 4096)) { request in
            struct Body: Decodable {
                var user: String
                var role: String
            }
            let (id, owner, body) = (request.parameter("id"), try owner(request), try Self.decode(Body.self, request.body))
            guard let role = AlbumRole(rawValue: body.role), role != .owner else {
                throw HTTPError.badRequest("invalid_role", "role: viewer or editor.")
            }
            let member = try person(named: body.user)
            let members = try await answering { () async throws(LibraryError) in
                try await library.catalog.share(id, with: Owner(id: member.id), as: role, owner: owner)
            }
            return .json(MembersJSON(members: members.map(memberJSON)))
        }
        router.delete("/api/albums/:id/members/:user") { request in
            let (id, owner) = (request.parameter("id"), try owner(request))
            let member = Owner(id: try request.integer("user") ?? 0)
            try await answering { () async throws(LibraryError) in try await library.catalog.unshare(id, from: member, owner: owner) }
            return Response(status: 204)
        }
    }

    /// An album as the asker sees it, its owner named.
    func albumJSON(_ album: Album) -> AlbumJSON {
        AlbumJSON(album, ownerName: name(of: album.owner))
    }

    private func memberJSON(_ member: AlbumMember) -> MemberJSON {
        MemberJSON(user: PersonNameJSON(id: member.member.id, name: name(of: member.member)), role: member.role.rawValue)
    }
}

struct MemberJSON: Encodable {
    var user: PersonNameJSON
    var role: String
}

struct MembersJSON: Encodable {
    var members: [MemberJSON]
}
