import Foundation
public import Vocabulary

/// What a listing shows: the picker's sources, and the Photos app's albums and views.
public enum AssetCollection: Sendable, Equatable {
    /// Every asset that is neither trashed nor an unsaved capture (the picker's photoLibrary).
    case library
    /// An album's assets; the Camera Roll is `album(Library.cameraRollID)`.
    case album(String)
    case favorites
    /// The library by import date, newest first: a 2011 photo added today comes first.
    case recentlyAdded
    /// Camera captures nobody saved yet, by import date (they expire after a retention period).
    case unsavedCaptures
    /// The trash, by the date each item went there, newest first.
    case recentlyDeleted

    /// The column a collection is ordered by (newest first), which its cursors and days name.
    var orderColumn: String {
        switch self {
        case .library, .album, .favorites: "sort_date"
        case .recentlyAdded, .unsavedCaptures: "imported_at"
        case .recentlyDeleted: "trashed_at"
        }
    }

    /// The conditions an asset (the row `row`, or the bare columns for nil) meets to be in the
    /// collection; an album's entries are its own table's. The movie half of a Live Photo is in
    /// none: it is its still's motion. The partial indexes and the day counts of the views are
    /// made from these same texts (`LibrarySchema.lifetimeListings`), so that a listing's
    /// conditions are its index's.
    func membership(of row: String?) -> [String] {
        let column = { (name: String) in row.map { "\($0).\(name)" } ?? name }
        let (kept, live) = ("\(column("trashed_at")) IS NULL", "\(column("live_photo_of")) IS NULL")
        return switch self {
        case .library, .recentlyAdded: [kept, live, "NOT \(column("unsaved"))"]
        case .album: [kept, live]
        case .favorites: [kept, live, "NOT \(column("unsaved"))", column("favorite")]
        case .unsavedCaptures: [kept, live, column("unsaved")]
        case .recentlyDeleted: ["\(column("trashed_at")) IS NOT NULL", live]
        }
    }

    /// The views (every collection but the albums), each with its name in `day_counts` and the
    /// partial index it is read through: its order, newest first, over its members alone, so
    /// that a page is the first rows of the index (or those after a cursor), whatever the
    /// planner knows of the table. Each album's days are counted too, as `album:ID`.
    static let views: [(name: String, index: String, collection: AssetCollection)] = [
        ("library", "assets_in_library", .library), ("favorites", "assets_in_favorites", .favorites),
        ("recentlyAdded", "assets_recently_added", .recentlyAdded), ("unsavedCaptures", "assets_unsaved", .unsavedCaptures),
        ("recentlyDeleted", "assets_in_trash", .recentlyDeleted),
    ]

    package var isAlbum: Bool {
        if case .album = self { return true }
        return false
    }

    /// The collection's name in `day_counts`.
    var countedName: String {
        if case .album(let id) = self { return "album:\(id)" }
        return Self.views.first { $0.collection == self }?.name ?? ""
    }
}

extension LibrarySource {
    public var collection: AssetCollection {
        switch self {
        case .photoLibrary: .library
        case .savedPhotosAlbum: .album(Library.cameraRollID)
        }
    }
}

/// A page request: which collection, which media types, how many, and from where.
public struct AssetQuery: Sendable, Equatable {
    public var collection: AssetCollection
    public var mediaTypes: Set<MediaType>
    public var limit: Int
    /// The `nextCursor` (or, going `.newer`, the `previousCursor`) of the page before; nil for
    /// the first.
    public var cursor: String?
    /// Which way from the cursor: older items (the listing's order) or newer ones.
    public var direction: Direction = .older
    /// Only assets whose file name or camera (make and model) contains this, in any case.
    public var search: String?
    /// A jump to a month (`YYYY-MM`) or a day (`YYYY-MM-DD`): the listing starts at its newest
    /// asset, or the newest one before it.
    public var startingAt: String?
    /// Only assets of these kinds (a picker's filter); nil for every kind.
    public var kinds: Set<AssetKind>?
    /// The library as its person shows it (the Photos app's Library view): with the libraries
    /// partners share with them that they chose to show in it. Only `.library` has them; the
    /// picker's sources never do.
    public var withPartners = false

    public enum Direction: String, Sendable {
        case older, newer
    }

    public static let maxLimit = 500

    public init(
        source: LibrarySource = .photoLibrary, mediaTypes: Set<MediaType> = Set(MediaType.allCases), limit: Int = 100,
        cursor: String? = nil
    ) {
        self.collection = source.collection
        self.mediaTypes = mediaTypes
        self.limit = limit
        self.cursor = cursor
    }
}

/// One page of assets, newest first (in the collection's order), whichever way it was asked.
public struct AssetPage: Sendable, Equatable {
    public var assets: [Asset]
    /// Pass it back to get the older page; nil on the last page.
    public var nextCursor: String?
    /// Pass it back with `.newer` to get the page before this one; nil when nothing is newer.
    public var previousCursor: String?
    /// The page's items by day of the listing's order, newest first, as `Library.days` counts
    /// them: a timeline lays out its first screen from its first page before every day's count
    /// is read. Each day is whole but the last, which may go on into the next page.
    public var days: [DayCount] = []
}

/// A day of a timeline (`YYYY-MM-DD`) and how many of the collection's assets it holds.
public struct DayCount: Sendable, Equatable, Codable {
    public var day: String
    public var count: Int
}

/// A position in a listing's order (its order column, a moment, then id, both descending),
/// opaque to clients.
package struct Cursor: Equatable {
    package var key: String
    package var id: String

    package var encoded: String {
        Data("\(key)|\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package init(key: String, id: String) {
        self.key = key
        self.id = id
    }

    package init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.count <= 200, let data = Data(base64Encoded: base64),
            let decoded = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = decoded.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, Library.isMoment(String(parts[0])) else { return nil }
        self.init(key: String(parts[0]), id: String(parts[1]))
    }
}
