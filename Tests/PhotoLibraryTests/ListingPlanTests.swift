import Foundation
import PhotoLibrary
import Storage
import TestSupport
import Testing

/// Every listing's plan on both engines, with the planner's statistics on: each view's page is
/// the first rows of its own index (or those after a cursor), never a scan of the table nor a
/// sort of it, its days (an album's too) are read from the counts kept for them, and the sweeps
/// that empty a view read it the same way. The library's rows are
/// cloned from one real import in the shares a family library has (`Library.cloneRows`).
@Suite(.serialized) struct ListingPlanTests {
    static let size = 60_000

    /// A library of `size` items, an album of a hundredth of them beside one of a fifth,
    /// analysed: the shares of a library of a million with an album of 10,000.
    func library(_ engine: Engine, optimized: Bool = false) async throws -> (LibraryFixture, album: String) {
        let fixture = try await LibraryFixture(engine)
        let source = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset.id
        try await fixture.library.catalog.cloneRows(of: source, count: Self.size)
        let album = try await fixture.library.catalog.createAlbum(title: "Holidays", owner: .first).id
        try await fixture.library.catalog.fillAlbum(album, count: Self.size / 100)
        try await fixture.library.catalog.fillAlbum(
            try await fixture.library.catalog.createAlbum(title: "Everything", owner: .first).id, count: Self.size / 5)
        // The statistics a running library keeps (`PRAGMA optimize` at a clean stop), or all of them.
        if optimized { try await fixture.library.flush() } else { try await fixture.library.catalog.analyze() }
        return (fixture, album)
    }

    func plan(_ library: Library, _ statement: Listing.Statement) async throws -> [String] {
        try await queryPlan(library, statement.sql, statement.arguments)
    }

    /// What no listing may do: read the whole table of assets or of album entries, or sort what
    /// it read. (The day counts hold a row per day, not per item: reading them all is allowed.)
    func wholeTableWork(_ lines: [String], sorts: Bool = false) -> [String] {
        lines.filter { line in
            let scan = !wholeTableScans([line], of: ["a", "m", "assets", "album_assets"]).isEmpty
            let sort =
                line.contains("USE TEMP B-TREE") || line.range(of: #"(^|->\s*)(Incremental )?Sort\b"#, options: .regularExpression) != nil
            return scan || (!sorts && sort)
        }
    }

    func query(_ collection: AssetCollection, _ change: (inout AssetQuery) -> Void = { _ in }) -> AssetQuery {
        var query = AssetQuery(limit: 60)
        query.collection = collection
        change(&query)
        return query
    }

    /// PostgreSQL's statistics are autovacuum's, which no test waits for: the kept ones are
    /// SQLite's alone (`PRAGMA optimize`).
    @Test(arguments: [(Engine.sqlite, false), (.postgreSQL, false), (.sqlite, true)])
    func everyViewIsReadThroughItsOwnIndex(engine: Engine, optimized: Bool)
        async throws
    {
        let (fixture, album) = try await library(engine, optimized: optimized)
        if optimized {
            // SQLite's own sampling (`analysis_limit`) once took a view's index for five times the
            // table: the statistics kept must be there, and whole.
            let rows = try await fixture.library.database.read { connection throws(StorageError) in
                try connection.query("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'assets'").map { row throws(StorageError) in
                    (try row.text("idx"), Int(try row.text("stat").split(separator: " ")[0]) ?? 0)
                }
            }
            let table = rows.first { $0.0 == "sqlite_autoindex_assets_1" }?.1 ?? 0
            #expect(table > Self.size, "the optimized library has statistics: \(rows)")
            #expect(rows.allSatisfy { $0.1 <= table }, "no index larger than its table: \(rows)")
        }
        let library = fixture.library
        let dialect = library.database.dialect
        let views: [(AssetCollection, String)] = [
            (.library, "assets_in_library"), (.favorites, "assets_in_favorites"), (.recentlyAdded, "assets_recently_added"),
            (.unsavedCaptures, "assets_unsaved"), (.recentlyDeleted, "assets_in_trash"), (.album(album), "album_assets_in_order"),
        ]
        for (collection, index) in views {
            // A cursor inside the view (the smallest holds 94 items).
            let deep = try await library.catalog.assets(query(collection) { $0.limit = 40 }, owner: .first).nextCursor
            let cursor = try #require(deep.flatMap(Cursor.init), "\(collection) has more than one page")
            let listing = try Listing(query(collection), owner: .first, dialect: dialect)
            var statements = [
                ("first page", listing.page(after: nil, direction: .older, limit: 61)),
                ("deep page", listing.page(after: cursor, direction: .older, limit: 61)),
                ("newer page", listing.page(after: cursor, direction: .newer, limit: 61)),
                (
                    "month",
                    try Listing(query(collection) { $0.startingAt = "2015-06" }, owner: .first, dialect: dialect).page(
                        after: nil, direction: .older, limit: 61)
                ),
                (
                    "movies",
                    try Listing(query(collection) { $0.mediaTypes = [.movie] }, owner: .first, dialect: dialect).page(
                        after: nil, direction: .older, limit: 61)
                ),
            ]
            if [.recentlyDeleted, .unsavedCaptures].contains(collection) {
                // The hourly expiry reads the view it empties, and a person's Recover All and
                // Delete All their own part of it.
                statements += [
                    ("expiry", Listing.expiring(collection, before: "2025-12-01T08:00:00.000Z")),
                    ("all of it", Listing.expiring(collection, before: nil)),
                    ("all of one's own", Listing.expiring(collection, before: nil, owner: .first)),
                ]
            }
            for (name, statement) in statements {
                let lines = try await plan(library, statement)
                // An album's movies may be sorted from its entries: the album, not the library.
                let albumFilter = collection == .album(album) && name == "movies"
                #expect(wholeTableWork(lines, sorts: albumFilter).isEmpty, "\(engine) \(collection) \(name): \(lines)")
                #expect(lines.contains { $0.contains(index) }, "\(engine) \(collection) \(name) reads \(index): \(lines)")
                // A view's page is a range of its owner's part of the index, not a filter of everyone's.
                if !collection.isAlbum && !["expiry", "all of it"].contains(name) {
                    #expect(
                        lines.contains { $0.contains(index) && $0.contains("owner_id") }
                            || lines.contains { $0.contains("Index Cond") && $0.contains("owner_id") },
                        "\(engine) \(collection) \(name) asks the index for its owner: \(lines)")
                }
            }
            let days = try await plan(library, listing.days)
            // Every view's days, an album's too, are the counts kept for them.
            #expect(
                days.contains { $0.contains("day_counts") } && !days.contains { $0.contains("assets") }
                    && wholeTableWork(days, sorts: true).isEmpty,
                "\(engine) \(collection) days: \(days)")
        }
    }

    @Test(arguments: Engine.withLocalBlobs) func searchReadsTheIndexOfWords(engine: Engine) async throws {
        let (fixture, _) = try await library(engine)
        let library = fixture.library
        for text in ["IMG_1234", "no such name", "canon eos"] {
            let listing = try Listing(query(.library) { $0.search = text }, owner: .first, dialect: library.database.dialect)
            let lines = try await plan(library, listing.page(after: nil, direction: .older, limit: 61))
            // What matches is sorted (a few rows), never the library.
            #expect(wholeTableWork(lines, sorts: true).isEmpty, "\(engine) search \(text): \(lines)")
            // A rare text is found through the words' index; one that every item has may be
            // found by reading the library's order until the page is full.
            if text != "canon eos" {
                #expect(
                    lines.contains { $0.contains("asset_search") || $0.contains("assets_by_words") }, "\(engine) search \(text): \(lines)")
                #expect(
                    !lines.contains { $0.contains("assets_in_library") }, "\(engine) search \(text) walks the library's order: \(lines)")
            }
        }
        var query = query(.library)
        query.search = "img_1234"
        #expect(try await library.catalog.assets(query, owner: .first).assets.map(\.originalFilename).contains("IMG_1234.JPG"))
        query.search = "Canon EOS 40D"
        #expect(try await library.catalog.count(.photoLibrary, owner: .first) > 0)
        #expect(try await library.catalog.assets(query, owner: .first).assets.count == 60, "every clone has the source's camera")
    }

    /// Whether a person sees an item through an album reads that item's entries alone, on both
    /// engines, whatever the size of the albums.
    @Test(arguments: [Engine.sqlite, .postgreSQL]) func aSharedItemIsLookedUpByItsEntries(engine: Engine) async throws {
        let (fixture, album) = try await library(engine)
        let entry = try #require(
            try await fixture.library.catalog.assets(query(.album(album)), owner: .first).assets.first?.id)
        let lines = try await queryPlan(fixture.library, Catalog.sharedEntry, [entry, 2, 2])
        #expect(wholeTableWork(lines, sorts: true).isEmpty, "\(lines)")
        #expect(lines.contains { $0.contains("album_assets_by_asset") || $0.contains("album_assets_by") }, "\(lines)")
    }

    /// A library shown inside a partner's own is read as each library's own range of the
    /// library's index, merged: neither library is read whole nor sorted whole, the day counts
    /// of both are summed.
    @Test(arguments: [Engine.sqlite, .postgreSQL]) func aLibraryWithAPartnersIsTwoRangesOfItsIndex(engine: Engine) async throws {
        let (fixture, _) = try await library(engine)
        let anna = Owner(id: 2)
        try await fixture.library.catalog.sharePartner(owner: .first, with: anna)
        try await fixture.library.catalog.showPartner(.first, inLibraryOf: anna, true)
        var query = query(.library)
        query.withPartners = true
        let page = try await fixture.library.catalog.assets(query, owner: anna)
        #expect(page.assets.count == 60 && page.assets.allSatisfy { $0.owner == .first })
        let listing = try Listing(query, owner: anna, partners: [.first], dialect: fixture.library.database.dialect)
        for cursor in [nil, Cursor(try #require(page.nextCursor))] {
            let lines = try await plan(fixture.library, listing.page(after: cursor, direction: .older, limit: 61))
            #expect(wholeTableScans(lines, of: ["a", "assets"]).isEmpty, "\(engine): \(lines)")
            #expect(lines.filter { $0.contains("assets_in_library") }.count >= 2, "\(engine): each library's range: \(lines)")
        }
        let days = try await queryPlan(fixture.library, listing.days.sql, listing.days.arguments)
        #expect(wholeTableScans(days, of: ["a", "assets"]).isEmpty, "\(days)")
        let counted = { (query: AssetQuery, owner: Owner) async throws -> Int in
            try await fixture.library.catalog.days(query, owner: owner).map(\.count).reduce(0, +)
        }
        #expect(try await counted(query, anna) == (try await counted(self.query(.library), .first)), "hers are none, his all")
    }

    /// A link to chosen items is read a page at a time from its entries' key, each item by its
    /// own, and whether it shows an item from that item's entries: neither reads all the
    /// entries of every link nor sorts them, with a link of 10,000 beside small ones.
    @Test(arguments: [Engine.sqlite, .postgreSQL]) func aLinksItemsAreReadThroughItsEntries(engine: Engine) async throws {
        let (fixture, _) = try await library(engine)
        let catalog = fixture.library.catalog
        let ids = try await fixture.library.database.read { connection throws(StorageError) in
            try connection.query(
                "SELECT id FROM assets WHERE trashed_at IS NULL AND NOT unsaved AND live_photo_of IS NULL ORDER BY id LIMIT 10000", []
            ).map { row throws(StorageError) in try row.text("id") }
        }
        let options = ShareLink.Options(removeLocation: false, allowDownload: false, allowUpload: false)
        for (index, chosen) in [ids, Array(ids.prefix(3)), Array(ids.suffix(5))].enumerated() {
            _ = try await catalog.createLink(
                NewShareLink(content: .assets(chosen), lifetime: nil, password: nil, options: options), id: "link\(index)", owner: .first)
        }
        try await catalog.analyze()
        let entries = ["a", "s", "assets", "share_link_assets"]
        let page = try await queryPlan(fixture.library, Catalog.linkedPage(of: .first), ["link0", 4000, 61])
        #expect(wholeTableScans(page, of: entries).isEmpty && wholeTableWork(page).isEmpty, "\(page)")
        let entry = try await queryPlan(fixture.library, Catalog.linkedEntry, [ids[9000], "link0"])
        #expect(wholeTableScans(entry, of: entries).isEmpty, "\(entry)")
        #expect(entry.contains { $0.contains("share_link_assets_by_asset") }, "\(entry)")
    }
}

/// The days each view counts as items come and go are the days its rows have, whatever was done
/// to them: imports of every kind, favourites, the trash and back, deletes, a capture saved.
@Suite struct DayCountTests {
    /// Each view's days as counted, and as its rows have them.
    func both(_ library: Library, albums: [String] = []) async throws -> [(String, counted: [DayCount], rows: [DayCount])] {
        var found: [(String, [DayCount], [DayCount])] = []
        let views: [(String, AssetCollection)] = [
            ("library", .library), ("favorites", .favorites), ("recentlyAdded", .recentlyAdded),
            ("unsavedCaptures", .unsavedCaptures), ("recentlyDeleted", .recentlyDeleted),
        ]
        for (name, collection) in views + albums.map({ ("album \($0)", AssetCollection.album($0)) }) {
            var query = AssetQuery(limit: AssetQuery.maxLimit)
            query.collection = collection
            let counted = try await library.catalog.days(query, owner: .first)
            // A search for nothing in particular is filtered, so its days are its rows'.
            query.search = "_"
            let rows = try await library.catalog.days(query, owner: .first)
            found.append((name, counted, rows))
            query.search = nil
            query.mediaTypes = [.movie]
            let movies = try await library.catalog.days(query, owner: .first)
            query.search = "_"
            found.append(("\(name) movies", movies, try await library.catalog.days(query, owner: .first)))
        }
        return found
    }

    @Test(arguments: Engine.withLocalBlobs) func theCountedDaysAreTheRowsDays(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        var ids: [String] = []
        for file in PhotosAppLibraryTests.dated.map(\.0) + ["videos/androidx-media__sample.mp4"] {
            ids.append(try await fixture.importCorpus(file).asset.id)
        }
        let capture = try await fixture.importCorpus("photos/lychee__train.jpg", source: .camera).asset.id
        let holidays = try await library.catalog.createAlbum(title: "Holidays", owner: .first).id
        let gone = try await library.catalog.createAlbum(title: "Gone", owner: .first).id
        _ = try await library.catalog.addToAlbum(holidays, assets: Array(ids[1...6]), owner: .first)
        _ = try await library.catalog.addToAlbum(gone, assets: Array(ids[0...3]), owner: .first)
        // A capture nobody saved, in its own view.
        try await fixture.importCorpus("photos/exifsamples__iphone_hdr_YES.jpg", source: .camera)
        try await library.catalog.setFavorite(Array(ids.prefix(3)), true, owner: .first)
        try await library.catalog.setTrashed(Array(ids[2...4]), true, owner: .first)
        try await library.catalog.setTrashed([ids[3]], false, owner: .first)
        try await library.catalog.setFavorite([ids[0]], false, owner: .first)
        try await library.ingest.deleteFromTrash([ids[4]], owner: .first)
        _ = try await library.catalog.saveToCameraRoll(capture, owner: .first)
        _ = try await library.catalog.removeFromAlbum(holidays, assets: [ids[5]], owner: .first)
        _ = try await library.catalog.addToAlbum(holidays, assets: [ids[5], ids[7]], owner: .first)
        _ = try await library.catalog.removeFromAlbum(holidays, assets: [ids[6]], owner: .first)
        try await library.catalog.deleteAlbum(gone, owner: .first)
        let all = try await both(library, albums: [holidays, Library.cameraRollID])
        for (name, counted, rows) in all {
            #expect(counted == rows, "\(engine) \(name)")
        }
        #expect(
            all.first { $0.0 == "library" }?.counted.reduce(0) { $0 + $1.count } == ids.count - 1,
            "one trashed, one deleted, one capture saved")
        #expect(all.first { $0.0 == "recentlyDeleted" }?.counted.reduce(0) { $0 + $1.count } == 1)
        #expect(all.first { $0.0 == "favorites" }?.counted.reduce(0) { $0 + $1.count } == 1, "one favourite left, one in the trash")
        #expect(try await library.catalog.count(.photoLibrary, owner: .first) == ids.count - 1)
        // 1 to 6, less 5 and 6 taken out, 5 and 7 put back; 2 in the trash, 4 deleted.
        #expect(all.first { $0.0 == "album \(holidays)" }?.counted.reduce(0) { $0 + $1.count } == 4)
        #expect(try await library.catalog.album(holidays, owner: .first).count == 4)
        #expect(
            try await library.catalog.days(AssetQuery(source: .savedPhotosAlbum), owner: .first).reduce(0) { $0 + $1.count } == 1,
            "the capture saved")
        let left = try await library.database.read { connection throws(StorageError) in
            try connection.scalar("SELECT count(*) FROM day_counts WHERE listing = ?", ["album:" + gone])
        }
        #expect(left == .integer(0), "a deleted album's counts go with it")
    }
}
