import PhotoLibrary
import Places
import Storage
import TestSupport
import Testing

/// A search on SQLite reads the view's next rows first (`Listing.pageInWindow`) and asks its
/// index of words only when they hold too few matches: every page of every search, older and
/// newer from a cursor, is the page the index of words gives, and the window's plan is a range
/// of the view's own index.
@Suite(.serialized) struct SearchWindowTests {
    /// 8,000 clones: a trip to Kyoto in each fiftieth run of 500, words read in one in 1,000, the
    /// rest at the photo's own place (Arezzo).
    func library(_ engine: Engine) async throws -> LibraryFixture {
        let fixture = try await LibraryFixture(engine)
        let source = try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset.id
        let variety = CloneVariety(
            trips: [
                Place(name: "Rome", region: "Lazio", country: "Italy", countryCode: "IT"),
                Place(name: "Kyoto", region: "Kyoto", country: "Japan", countryCode: "JP"),
            ],
            pictureWords: "TOTAL 12.50 receipt")
        try await fixture.library.catalog.cloneRows(of: source, count: 8_000, variety: variety)
        try await fixture.library.catalog.analyze()
        return fixture
    }

    /// The ids of every page of `text`'s results, read as the app reads them (`limit` a page),
    /// from the top down, then up again from the last page's cursor.
    func pages(_ library: Library, _ text: String, limit: Int) async throws -> (down: [String], up: [String]) {
        var query = AssetQuery(limit: limit)
        query.search = text
        var down: [String] = []
        var last: AssetPage?
        repeat {
            let page = try await library.catalog.assets(query, owner: .first)
            down += page.assets.map(\.id)
            query.cursor = page.nextCursor
            last = page
        } while query.cursor != nil
        var up: [String] = []
        query.direction = .newer
        query.cursor = last?.previousCursor
        while let cursor = query.cursor {
            query.cursor = cursor
            let page = try await library.catalog.assets(query, owner: .first)
            up = page.assets.map(\.id) + up
            query.cursor = page.previousCursor
        }
        return (down, up)
    }

    /// What the index of words alone finds for `text`, in the view's order.
    func indexed(_ library: Library, _ text: String) async throws -> [String] {
        var query = AssetQuery(limit: AssetQuery.maxLimit)
        query.search = text
        let listing = try Listing(
            query, owner: .first, synonyms: await library.geocoder.synonyms(of: text), dialect: library.database.dialect)
        let statement = listing.page(after: nil, direction: .older, limit: 100_000)
        return try await library.database.read { connection throws(StorageError) in
            try connection.query(statement.sql, statement.arguments).map { row throws(StorageError) in try row.text("id") }
        }
    }

    @Test(arguments: [Engine.sqlite, .postgreSQL]) func everyPageIsTheIndexOfWordsPage(engine: Engine) async throws {
        let fixture = try await library(engine)
        let library = fixture.library
        // Most of the library; a trip of a few runs; a country by another name; a few words read; none.
        for (text, least) in [("Arezzo", 6_000), ("Kyoto", 400), ("Italia", 400), ("receipt", 7), ("no such place", 0)] {
            let expected = try await indexed(library, text)
            #expect(expected.count >= least, "\(text): \(expected.count)")
            for limit in [60, AssetQuery.maxLimit] {
                let (down, up) = try await pages(library, text, limit: limit)
                #expect(down == expected, "\(engine) \(text), \(limit) a page, from the top")
                // Up from the last page's top: all but the last page, in order.
                #expect(up == Array(expected.dropLast(expected.count - up.count)), "\(engine) \(text), \(limit) a page, upwards")
                #expect(up.count >= expected.count - limit)
            }
        }
    }

    @Test func theWindowIsARangeOfTheViewsIndex() async throws {
        let fixture = try await library(.sqlite)
        let library = fixture.library
        var query = AssetQuery(limit: 60)
        query.search = "Arezzo"
        let listing = try Listing(query, owner: .first, dialect: .sqlite)
        let window = try #require(listing.pageInWindow(after: nil, direction: .older, limit: 61))
        let lines = try await queryPlan(library, window.sql, window.arguments)
        #expect(wholeTableScans(lines, of: ["a", "assets"]).isEmpty, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("asset_search") }, "\(lines)")
        #expect(lines.first?.contains("USING INDEX assets_in_library (owner_id=? AND sort_date") == true, "\(lines)")
        let rows = try await library.database.read { connection throws(StorageError) in
            try connection.query(window.sql, window.arguments).count
        }
        #expect(rows == 61, "the newest of a place most items share are found in the window")
        // Whether to look in the window at all: the index of words counts as far as `common`.
        for (text, common) in [("Arezzo", true), ("receipt", false), ("no such place", false)] {
            query.search = text
            let count = try #require(try Listing(query, owner: .first, dialect: .sqlite).commonSearch)
            let found = try await library.database.read { connection throws(StorageError) in
                try connection.query(count.sql, count.arguments).first?.integer("found")
            }
            #expect((found == Listing.common) == common, "\(text): \(String(describing: found))")
        }
        query.search = "IM"
        #expect(try Listing(query, owner: .first, dialect: .sqlite).commonSearch == nil, "too short for the index")
        // Beyond ASCII, or on PostgreSQL, the index of words is asked at once.
        query.search = "Ärezzo"
        #expect(try Listing(query, owner: .first, dialect: .sqlite).pageInWindow(after: nil, direction: .older, limit: 61) == nil)
        query.search = "Arezzo"
        #expect(try Listing(query, owner: .first, dialect: .postgreSQL).pageInWindow(after: nil, direction: .older, limit: 61) == nil)
    }
}
