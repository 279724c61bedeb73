import Foundation
import HTTPServer
import Memo
import PhotoLibrary

/// The Photos app's calls: a collection's timeline, albums, favourites and Recently Deleted.
/// Changes name their items in one body (`{"ids": [...]}`), all or none, so that a selection of
/// thousands is one request and one transaction.
extension WebApp {
    func addPhotosRoutes(to router: inout Router) {
        router.get("/api/timeline") { request in
            let (query, owner, partner) = (try AssetQuery(request), try owner(request), try partner(request))
            let days = try await answering { () throws(LibraryError) in
                if let partner { return try await library.catalog.partnerDays(query, of: partner, for: owner) }
                return try await library.catalog.days(query, owner: owner)
            }
            return .json(TimelineJSON(days: days, count: days.reduce(0) { $0 + $1.count }))
        }
        // What the search field suggests as one types: places, countries, cameras and a year.
        router.get("/api/search/suggestions") { request in
            let (typed, owner) = (request.query["q"] ?? "", try owner(request))
            let found = try await answering { () throws(LibraryError) in try await library.catalog.suggestions(for: typed, owner: owner) }
            return .json(SuggestionsJSON(suggestions: found))
        }
        router.post("/api/assets/favorite", body: Self.changeBody) { request in
            let change = try Self.decode(Change.self, request.body)
            guard let favorite = change.favorite else { throw HTTPError.badRequest("invalid_json", "favorite: true or false.") }
            let owner = try owner(request)
            try await answering { () throws(LibraryError) in try await library.catalog.setFavorite(change.ids, favorite, owner: owner) }
            return .json(Changed(changed: change.ids.count))
        }
        for (path, trashed) in [("trash", true), ("restore", false)] {
            router.post("/api/assets/\(path)", body: Self.changeBody) { request in
                let change = try Self.decode(Change.self, request.body)
                let owner = try owner(request)
                try await answering { () throws(LibraryError) in try await library.catalog.setTrashed(change.ids, trashed, owner: owner) }
                return .json(Changed(changed: change.ids.count))
            }
        }
        router.post("/api/assets/delete", body: Self.changeBody) { request in
            let change = try Self.decode(Change.self, request.body)
            let owner = try owner(request)
            try await answering { () throws(LibraryError) in try await library.ingest.deleteFromTrash(change.ids, owner: owner) }
            return .json(Changed(changed: change.ids.count))
        }
        // Recently Deleted as a whole: Recover All (answering the ids, for an Undo) and Delete All.
        router.post("/api/trash/restore") { request in
            let owner = try owner(request)
            let ids = try await answering { () throws(LibraryError) in try await library.catalog.restoreAll(owner: owner) }
            return .json(Restored(changed: ids.count, ids: ids))
        }
        router.post("/api/trash/empty") { request in
            let owner = try owner(request)
            let count = try await answering { () throws(LibraryError) in try await library.ingest.emptyTrash(owner: owner) }
            return .json(Changed(changed: count))
        }
        router.get("/api/thumbnails") { request in
            let size = try request.integer("size") ?? 256
            guard Library.thumbnailSizes.contains(size) else {
                throw HTTPError.badRequest(
                    "invalid_parameter", "size: \(Library.thumbnailSizes.map(String.init).joined(separator: " or ")).")
            }
            guard let items = request.query["items"].flatMap(ThumbnailBatch.items) else {
                throw HTTPError.badRequest(
                    "invalid_parameter",
                    "items: 1 to \(ThumbnailBatch.maxItems) asset ids, each with ~ and its edit if it has one, separated by ;.")
            }
            let owner = try owner(request)
            var parts: [(id: String, made: (mimeType: String, bytes: StableBytes)?)] = []
            for item in items {
                // One that cannot be made (gone since the page read it, or another's) is left out, not the batch.
                parts.append(
                    (item.id, try? await library.derivatives.thumbnailBytes(of: item.id, size: size, edit: item.edit, owner: owner)))
            }
            var response = Response.bytes(ThumbnailBatch.body(parts), contentType: "application/vnd.cameraroll.thumbnails")
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        addAlbumRoutes(to: &router)
    }

    private func addAlbumRoutes(to router: inout Router) {
        router.get("/api/albums") { request in
            let owner = try owner(request)
            let albums = try await answering { () throws(LibraryError) in try await library.catalog.albums(owner: owner) }
            return .json(["albums": albums.map(albumJSON)])
        }
        router.post("/api/albums", body: .file(maxBytes: 4096)) { request in
            let (title, owner) = (try Self.decode(AlbumChange.self, request.body).title ?? "", try owner(request))
            let album = try await answering { () throws(LibraryError) in try await library.catalog.createAlbum(title: title, owner: owner) }
            var response = Response.json(albumJSON(album), status: 201)
            response.headers["Location"] = "/api/albums/\(album.id)"
            return response
        }
        router.get("/api/albums/:id") { request in
            let (id, owner) = (request.parameter("id"), try owner(request))
            return .json(albumJSON(try await answering { () throws(LibraryError) in try await library.catalog.album(id, owner: owner) }))
        }
        router.add("PATCH", "/api/albums/:id", body: .file(maxBytes: 4096)) { request in
            let id = request.parameter("id")
            let (change, owner) = (try Self.decode(AlbumChange.self, request.body), try owner(request))
            return try await answering { () throws(LibraryError) in
                var album = try await library.catalog.album(id, owner: owner)
                if let title = change.title { album = try await library.catalog.renameAlbum(id, to: title, owner: owner) }
                if let cover = change.coverAssetID { album = try await library.catalog.setAlbumCover(id, to: cover, owner: owner) }
                return .json(albumJSON(album))
            }
        }
        router.delete("/api/albums/:id") { request in
            let owner = try owner(request)
            try await answering { () throws(LibraryError) in try await library.catalog.deleteAlbum(request.parameter("id"), owner: owner) }
            return Response(status: 204)
        }
        for (path, adds) in [("assets", true), ("assets/remove", false)] {
            router.post("/api/albums/:id/\(path)", body: Self.changeBody) { request in
                let (id, ids) = (request.parameter("id"), try Self.decode(Change.self, request.body).ids)
                let owner = try owner(request)
                let (album, added) = try await answering { () throws(LibraryError) in
                    adds
                        ? try await library.catalog.addToAlbum(id, assets: ids, owner: owner)
                        : (try await library.catalog.removeFromAlbum(id, assets: ids, owner: owner), nil)
                }
                var json = albumJSON(album)
                json.added = added
                return .json(json)
            }
        }
    }

    /// Room for `Library.maxBatch` ids of 32 characters with their quotes and commas.
    private static let changeBody = Router.BodyPolicy.file(maxBytes: 64 * 1024 + Library.maxBatch * 40)

    /// A change to items: which ones, and for favourites which way.
    private struct Change: Decodable {
        var ids: [String]
        var favorite: Bool?
    }

    private struct Changed: Encodable {
        var changed: Int
    }

    private struct Restored: Encodable {
        var changed: Int
        var ids: [String]
    }

    /// An album's new title, or its cover: an asset's id, or null for its newest again.
    private struct AlbumChange: Decodable {
        var title: String?
        /// Present (`.some`) when the body names `coverAssetID`, even as null.
        var coverAssetID: String??

        enum CodingKeys: String, CodingKey { case title, coverAssetID }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decodeIfPresent(String.self, forKey: .title)
            if container.contains(.coverAssetID) {
                coverAssetID = .some(
                    try container.decodeNil(forKey: .coverAssetID) ? nil : try container.decode(String.self, forKey: .coverAssetID))
            }
        }
    }
}

struct TimelineJSON: Encodable {
    var days: [DayCount]
    var count: Int
}

struct AlbumJSON: Encodable {
    var id: String
    var title: String
    var count: Int
    var builtIn: Bool
    var coverAssetID: String?
    /// The cover's thumbnail; nil for an empty album.
    var cover: String?
    var owner: PersonNameJSON
    /// `owner`, `editor` or `viewer`: what the asker may do with it.
    var role: String
    /// After an add: the ids that were not in it before, in the order named.
    var added: [String]?

    init(_ album: Album, ownerName: String) {
        id = album.id
        title = album.title
        count = album.count
        builtIn = album.isBuiltIn
        coverAssetID = album.coverAssetID
        cover = album.coverAssetID.map { "/media/\($0)/thumbnail?size=256" }
        owner = PersonNameJSON(id: album.owner.id, name: ownerName)
        role = album.role.rawValue
    }
}

/// A person as a shared album names them.
struct PersonNameJSON: Encodable {
    var id: Int
    var name: String
}

struct SuggestionsJSON: Encodable {
    var suggestions: [SearchSuggestion]
}
