import Foundation
import TestSupport
import Testing

@testable import PhotoLibrary

/// The picker's search: by file name or camera, in any case, with LIKE's own characters taken as
/// themselves, and a jump to a month; on both engines, whose LIKE and lower() differ.
@Suite struct ListingSearchTests {
    @Test(arguments: Engine.withLocalBlobs) func searchFindsFileNamesAndCamerasAndAMonthJumps(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let canon = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let iphone = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        let landscape = try await fixture.importCorpus("photos/recurser__Landscape_1.jpg").asset
        func ids(search: String? = nil, month: String? = nil) async throws -> [String] {
            var query = AssetQuery()
            query.search = search
            query.startingAt = month
            return try await fixture.library.catalog.assets(query, owner: .first).assets.map(\.id)
        }
        #expect(try await ids(search: "CANON") == [canon.id], "the camera, in any case")
        #expect(try await ids(search: "landscape_1") == [landscape.id], "the file name")
        #expect(try await ids(search: "iphone 6s") == [iphone.id], "make and model together")
        #expect(try await ids(search: "c%n").isEmpty, "LIKE's wildcards are themselves")
        #expect(try await ids(search: "c_non").isEmpty)
        #expect(try await ids(search: "canon_40") == [canon.id], "an underscore matches an underscore")
        #expect(Set(try await ids(search: "")) == Set([canon.id, iphone.id, landscape.id]))

        let dates = [canon, iphone, landscape].map { ($0.id, $0.captureDate ?? "") }.sorted { $0.1 > $1.1 }
        let newest = try #require(dates.first)
        let month = String(newest.1.prefix(7))
        let listed = try await ids(month: month)
        #expect(listed.first == newest.0, "the month's newest item first")
        let earlier = try #require(Library.periodAfter(month)).prefix(4)
        #expect(try await ids(month: "\(Int(earlier)! - 100)-01").isEmpty, "nothing a century before")
        for bad in ["2024-13", "2024-6", "june", "２０２４-01", "+202-01", "2024-+1"] {
            await #expect(throws: LibraryError.self, "\(bad)") { try await ids(month: bad) }
        }
        #expect(Library.periodAfter("2024-12") == "2025-01-01" && Library.periodAfter("2024-06") == "2024-07-01")
        #expect(Library.periodAfter("9999-12") == nil, "no month after it is written in four digits")
        #expect(Library.periodAfter("2024-02-28") == "2024-02-29" && Library.periodAfter("2024-02-29") == "2024-03-01")
        #expect(Library.periodAfter("2023-02-29") == nil && Library.periodAfter("1900-02-29") == nil, "no such day")
        #expect(Library.periodAfter("2000-02-29") == "2000-03-01" && Library.periodAfter("2024-12-31") == "2025-01-01")
        for bad in ["2024-06-00", "2024-06-31", "2024-6-01", "2024-06-1", "2024-06-01-01"] {
            #expect(Library.periodAfter(bad) == nil, "\(bad)")
        }
    }

    /// Search text goes to an index of words (SQLite's FTS5 takes it as one quoted phrase), so
    /// what is syntax there, quotes and all, is text to find; one or two characters are found too.
    @Test(arguments: Engine.withLocalBlobs) func anyTextIsASearchAndShortOnesFind(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let canon = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let iphone = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        func ids(_ search: String) async throws -> [String] {
            var query = AssetQuery()
            query.search = search
            return try await fixture.library.catalog.assets(query, owner: .first).assets.map(\.id)
        }
        #expect(try await ids("40") == [canon.id])
        #expect(try await ids("6S") == [iphone.id])
        for text in [
            "\"", "\"\"", "\"canon\"", "canon\"", "'", "*", "canon*", "NEAR(canon 40d)", "canon OR iphone", "^canon", "   ", "🙂🙂🙂", "a:b",
            "(", "-canon", "\"\u{0730}", "canon\"\u{301} OR iphone", "%\u{301}", "_\u{301}",
        ] {
            #expect(try await ids(text).isEmpty, "\(engine) \(text.debugDescription)")
        }
        #expect(try await ids("EOS 40D") == [canon.id], "more than one word is one phrase")
        for control in ["\u{0}x", "canon\n", "\t40"] {
            await #expect(throws: LibraryError.self, "\(control.debugDescription)") { try await ids(control) }
        }
    }
}
