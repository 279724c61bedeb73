import Credentials
import Foundation
import HTTPServer
import PhotoLibrary
import UTCTime

/// Links for people without an account: a person makes one to an album of theirs or to items
/// they choose, lists theirs, and revokes one at once. What a guest sees through one is
/// `addGuestRoutes`'.
extension WebApp {
    func addShareLinkRoutes(to router: inout Router) {
        router.get("/api/shares") { request in
            let owner = try owner(request)
            let links = try await answering { () async throws(LibraryError) in try await library.catalog.links(owner: owner) }
            return .json(ShareLinksJSON(links: links.map(linkJSON)))
        }
        router.post("/api/shares", body: .file(maxBytes: 1 << 20)) { request in try await createLink(request) }
        router.delete("/api/shares/:id") { request in
            let (id, owner) = (request.parameter("id"), try owner(request))
            try await answering { () async throws(LibraryError) in try await library.catalog.revokeLink(id, owner: owner) }
            return Response(status: 204)
        }
    }

    private func createLink(_ request: Request) async throws -> Response {
        struct Body: Decodable {
            var assetIDs: [String]?
            var albumID: String?
            var expiresIn: Int?
            var password: String?
            var removeLocation: Bool?
            var allowDownload: Bool?
            var allowUpload: Bool?
        }
        let (owner, body) = (try owner(request), try Self.decode(Body.self, request.body))
        let content: NewShareLink.Content
        switch (body.assetIDs, body.albumID) {
        case (let ids?, nil): content = .assets(ids)
        case (nil, let album?): content = .album(album)
        default: throw HTTPError.badRequest("invalid_share", "Name what the link shows: assetIDs (a list) or albumID, not both.")
        }
        guard let removeLocation = body.removeLocation, let allowDownload = body.allowDownload else {
            throw HTTPError.badRequest(
                "invalid_share", "Say whether the link removes location (removeLocation) and allows downloads (allowDownload).")
        }
        var password: String?
        if let text = body.password, !text.isEmpty {
            let hash = try await answering { () async throws(CredentialsError) in
                try await access.disk.run { () throws(CredentialsError) in try PasswordHash(password: text) }
            }
            password = String(decoding: try JSONEncoder().encode(hash), as: UTF8.self)
        }
        let new = NewShareLink(
            content: content, lifetime: body.expiresIn, password: password,
            options: ShareLink.Options(removeLocation: removeLocation, allowDownload: allowDownload, allowUpload: body.allowUpload ?? false)
        )
        let link = try await answering { () async throws(LibraryError) in
            try await library.catalog.createLink(new, id: ShareTokens.newID(), owner: owner)
        }
        return .json(linkJSON(link), status: 201)
    }

    private func linkJSON(_ link: ShareLink) -> ShareLinkJSON {
        var count: Int?
        if case .assets(let items) = link.content { count = items }
        return ShareLinkJSON(
            id: link.id, url: "/s/\(access.shareTokens.token(for: link.id))", albumID: link.albumID, assetCount: count,
            created: link.created, expiresAt: Self.expiry(of: link),
            expired: !link.isLive(), hasPassword: link.password != nil, removeLocation: link.options.removeLocation,
            allowDownload: link.options.allowDownload, allowUpload: link.options.allowUpload)
    }

    /// When a link stops opening, as the API writes moments; nil for never.
    static func expiry(of link: ShareLink) -> String? {
        link.expires.map { UTCTime(Date(timeIntervalSince1970: Double($0))).iso8601() }
    }
}

/// A link as its owner sees it; `url` is the guests' page, on this server.
struct ShareLinkJSON: Encodable {
    var id: String
    var url: String
    var albumID: String?
    /// How many items a link to chosen items shows.
    var assetCount: Int?
    var created: String
    /// nil: it never expires.
    var expiresAt: String?
    var expired: Bool
    var hasPassword: Bool
    var removeLocation: Bool
    var allowDownload: Bool
    var allowUpload: Bool
}

struct ShareLinksJSON: Encodable {
    var links: [ShareLinkJSON]
}
