import Foundation
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// What the search field suggests: the places, countries, cameras and years of one person's
/// library, counted as its items come, change and go; on both engines, from a few rows of the
/// terms' own table.
@Suite struct SuggestionTests {
    func suggested(_ library: Library, _ typed: String, owner: Owner = .first) async throws -> [String] {
        try await library.catalog.suggestions(for: typed, owner: owner).map { "\($0.kind.rawValue) \($0.text) \($0.items)" }
    }

    @Test(arguments: Engine.withLocalBlobs) func placesCountriesCamerasAndYearsAreSuggestedWithTheirCounts(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let arezzo = try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset
        _ = try await fixture.importCorpus("photos/exifsamples__DSCN0021.jpg")
        _ = try await fixture.importCorpus("photos/androidx-media__tokyo.jpg")
        _ = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg")

        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy 2"])
        #expect(try await suggested(library, "ITAL") == ["place Arezzo, Tuscany, Italy 2", "country Italy 2"])
        #expect(
            try await suggested(library, "Italien") == ["place Arezzo, Tuscany, Italy 2", "country Italy 2"], "a country's German name")
        #expect(try await suggested(library, "canon") == ["camera Canon EOS 40D 1"])
        #expect(try await suggested(library, "2008") == ["year 2008 3"], "the year, of the library's days")
        #expect(try await suggested(library, "1999").isEmpty)
        #expect(try await suggested(library, "  ").isEmpty)
        #expect(try await suggested(library, "%").isEmpty, "LIKE's wildcards are themselves")
        await #expect(throws: LibraryError.self) { try await suggested(library, "a\u{0}") }

        // Counted as items leave the library and come back, never below what is there.
        try await library.catalog.setTrashed([arezzo.id], true, owner: .first)
        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy 1"])
        try await library.catalog.setTrashed([arezzo.id], false, owner: .first)
        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy 2"])
        let other = try await library.catalog.suggestions(for: "arez", owner: Owner(id: 2))
        #expect(other.isEmpty, "one person's library is theirs")
        try await library.catalog.setTrashed([arezzo.id], true, owner: .first)
        try await library.ingest.deleteFromTrash([arezzo.id], owner: .first)
        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy 1"])

        // What the migration counts from rows already there is what the triggers kept.
        let kept = try await terms(library)
        let counting = LibrarySchema.SearchTerms(dialect: library.database.dialect).everyRowCounted
        try await library.database.write { connection throws(StorageError) in
            _ = try connection.run("DELETE FROM search_terms")
            try connection.execute(counting)
        }
        #expect(try await terms(library) == kept && kept.count == 7, "\(kept)")
    }

    func terms(_ library: Library) async throws -> [String] {
        try await library.database.read { connection throws(StorageError) in
            try connection.query("SELECT owner_id, kind, term, items FROM search_terms ORDER BY kind, term").map {
                row throws(StorageError) in
                "\(try row.integer("owner_id")) \(try row.text("kind")) \(try row.text("term")) \(try row.integer("items"))"
            }
        }
    }

    /// A suggestion reads one person's range of the terms, never the library.
    @Test(arguments: [Engine.sqlite, .postgreSQL]) func aSuggestionReadsOnePersonsTerms(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let source = try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset.id
        try await library.catalog.cloneRows(of: source, count: 20_000)
        // A family's terms beside: 200 other people's hundred cameras each.
        _ = try await library.database.write { connection throws(StorageError) in
            try connection.run(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                INSERT INTO search_terms (owner_id, kind, term, items) SELECT 1000 + i / 100, 'camera', 'Camera ' || i, 1 FROM n
                """)
        }
        try await library.catalog.analyze()
        let lines = try await queryPlan(
            library,
            "SELECT kind, term, items FROM search_terms WHERE owner_id = ? AND (lower(term) LIKE ? ESCAPE '\\') ORDER BY items DESC, term LIMIT ?",
            [1, "%arez%", Catalog.maxSuggestions])
        #expect(wholeTableScans(lines, of: ["search_terms", "assets"]).isEmpty, "\(engine): \(lines)")
        // The clones are the library's items in the shares a family's has (some in the trash).
        let shown = try await library.catalog.days(AssetQuery(), owner: .first).reduce(0) { $0 + $1.count }
        #expect(shown > 15_000)
        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy \(shown)"])
        // Five hundred items leave the library in one statement, and come back.
        let some = try await library.catalog.assets(AssetQuery(limit: 500), owner: .first).assets.map(\.id)
        try await library.catalog.setTrashed(some, true, owner: .first)
        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy \(shown - some.count)"])
        try await library.catalog.setTrashed(some, false, owner: .first)
        #expect(try await suggested(library, "arez") == ["place Arezzo, Tuscany, Italy \(shown)"])
    }
}
