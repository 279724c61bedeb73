import Foundation
import HTTPServer
import ImagePicker
import PhotoLibrary
import Vocabulary

extension AssetQuery {
    /// The listing a request's query asks for: one of `source` (the picker's), `collection` or
    /// `album`; `mediaTypes`, `limit`, `cursor` and `direction`, `search`, a jump to a `month`
    /// or a `day`, and a picker's `filter`.
    init(_ request: Request) throws(HTTPError) {
        self.init()
        let named = ["source", "collection", "album"].filter { request.query[$0] != nil }
        guard named.count <= 1 else { throw HTTPError.badRequest("invalid_parameter", "Name one of source, collection and album.") }
        if let source = request.query["source"] {
            guard let parsed = LibrarySource(rawValue: source) else {
                throw HTTPError.badRequest("invalid_parameter", "source: photoLibrary or savedPhotosAlbum.")
            }
            collection = parsed.collection
        }
        // The Photos app's Library view names its collection; the picker names a source, whose
        // library is one's own alone.
        withPartners = request.query["collection"] == "library"
        if let name = request.query["collection"] {
            guard let parsed = Self.collections[name] else {
                throw HTTPError.badRequest(
                    "invalid_parameter", "collection: \(Self.collections.keys.sorted().joined(separator: ", ")).")
            }
            collection = parsed
        }
        if let album = request.query["album"] {
            guard !album.isEmpty, album.utf8.count <= 64 else { throw HTTPError.badRequest("invalid_parameter", "album: an album's id.") }
            collection = .album(album)
        }
        if let types = request.query["mediaTypes"] {
            var parsed: Set<MediaType> = []
            for name in types.split(separator: ",") {
                guard let type = MediaType(rawValue: String(name)) else {
                    throw HTTPError.badRequest("invalid_parameter", "mediaTypes: public.image and public.movie, separated by commas.")
                }
                parsed.insert(type)
            }
            mediaTypes = parsed
        }
        limit = try request.integer("limit", in: 1...AssetQuery.maxLimit) ?? 100
        cursor = request.query["cursor"]
        if let way = request.query["direction"] {
            guard let parsed = Direction(rawValue: way) else {
                throw HTTPError.badRequest("invalid_parameter", "direction: older or newer.")
            }
            direction = parsed
        }
        search = request.query["search"]
        guard request.query["month"] == nil || request.query["day"] == nil else {
            throw HTTPError.badRequest("invalid_parameter", "Jump to a month or to a day, not both.")
        }
        startingAt = request.query["month"] ?? request.query["day"]
        if let filter = request.query["filter"] {
            guard filter.utf8.count <= 4096, let parsed = try? JSONDecoder().decode(PickerFilter.self, from: Data(filter.utf8)) else {
                throw HTTPError.badRequest("invalid_parameter", "filter: a picker filter as JSON, such as {\"not\":\"screenshots\"}.")
            }
            kinds = parsed.kinds
        }
    }

    private static let collections: [String: AssetCollection] = [
        "library": .library, "favorites": .favorites, "recentlyAdded": .recentlyAdded, "unsavedCaptures": .unsavedCaptures,
        "recentlyDeleted": .recentlyDeleted,
    ]
}
