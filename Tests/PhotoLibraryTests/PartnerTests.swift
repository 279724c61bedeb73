import PhotoLibrary
import Storage
import TestSupport
import Testing

/// A library shared whole with a partner: they list it apart, see its items, change none of
/// them, and see neither its trash nor its unsaved captures; it ends when its owner says.
@Suite struct PartnerTests {
    let anna = Owner(id: 2)
    let cleo = Owner(id: 3)

    @Test(arguments: Engine.withLocalBlobs) func aPartnerSeesTheLibraryAndChangesNothing(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let catalog = fixture.library.catalog
        let kept = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let trashed = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        _ = try await catalog.trash(trashed.id, owner: .first)
        let capture = try await fixture.importCorpus("photos/exifsamples__Nikon_D70.jpg", source: .camera).asset
        #expect(capture.isUnsaved)

        #expect(await libraryErrorCode { _ = try await catalog.partnerAssets(AssetQuery(), of: .first, for: anna) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(kept.id, to: anna) } == .notFound)
        #expect(await libraryErrorCode { try await catalog.sharePartner(owner: anna, with: anna) } == .invalidRequest)
        try await catalog.sharePartner(owner: .first, with: anna)
        try await catalog.sharePartner(owner: .first, with: anna)
        #expect(try await catalog.partners(sharedBy: .first) == [anna])
        #expect(try await catalog.partners(sharingWith: anna) == [.first])

        #expect(try await catalog.partnerAssets(AssetQuery(), of: .first, for: anna).assets.map(\.id) == [kept.id])
        #expect(try await catalog.partnerDays(AssetQuery(), of: .first, for: anna).map(\.count).reduce(0, +) == 1)
        #expect(try await catalog.visibleAsset(kept.id, to: anna).id == kept.id)
        #expect(try await fixture.library.derivatives.thumbnail(of: kept.id, size: 256, owner: anna).size != nil)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(trashed.id, to: anna) } == .notFound, "not the trash")
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(capture.id, to: anna) } == .notFound, "not an unsaved capture")
        var trash = AssetQuery()
        trash.collection = .recentlyDeleted
        #expect(await libraryErrorCode { _ = try await catalog.partnerAssets(trash, of: .first, for: anna) } == .invalidRequest)
        #expect(await libraryErrorCode { try await catalog.setFavorite([kept.id], true, owner: anna) } == .notFound, "seen, never changed")
        #expect(await libraryErrorCode { _ = try await catalog.trash(kept.id, owner: anna) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.partnerAssets(AssetQuery(), of: .first, for: cleo) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(kept.id, to: cleo) } == .notFound)
        #expect(try await catalog.assets(AssetQuery(), owner: anna).assets.isEmpty, "her own library is her own")

        #expect(await libraryErrorCode { try await catalog.unsharePartner(sharer: anna, partner: .first) } == .notFound)
        try await catalog.unsharePartner(sharer: .first, partner: anna)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(kept.id, to: anna) } == .notFound)
        #expect(try await catalog.partners(sharingWith: anna).isEmpty)
    }

    /// A library shown inside the partner's own: one listing of both, newest first across them,
    /// a page at a time either way, its days the sum of both; the partner's choice, undone as
    /// easily; the picker's library and a partner's library seen apart stay one library each.
    @Test(arguments: Engine.withLocalBlobs) func aPartnersLibraryShownInOnesOwn(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let catalog = fixture.library.catalog
        let ingest = fixture.library.ingest
        var mine: [Asset] = []
        for file in ["photos/exifsamples__Canon_40D.jpg", "photos/exifsamples__Nikon_D70.jpg"] {
            mine.append(try await fixture.importCorpus(file).asset)
        }
        let hers = try await ingest.importFile(at: Corpus.path("photos/lychee__train.jpg"), owner: anna).asset
        let trashed = try await fixture.importCorpus("photos/androidx-media__tokyo.jpg").asset
        _ = try await catalog.trash(trashed.id, owner: .first)
        try await catalog.sharePartner(owner: .first, with: anna)
        #expect(await libraryErrorCode { try await catalog.showPartner(anna, inLibraryOf: .first, true) } == .notFound)
        try await catalog.showPartner(.first, inLibraryOf: anna, true)
        #expect(try await catalog.partnersShown(in: anna) == [.first])

        var query = AssetQuery(limit: 1)
        query.collection = .library
        query.withPartners = true
        let all = (mine + [hers]).map(\.id)
        let expected = try await fixture.library.database.read { connection throws(StorageError) in
            try connection.query("SELECT id FROM assets WHERE id IN (?, ?, ?) ORDER BY sort_date DESC, id DESC", all).map {
                row throws(StorageError) in try row.text("id")
            }
        }
        var seen: [String] = []
        var page = try await catalog.assets(query, owner: anna)
        seen += page.assets.map(\.id)
        while let next = page.nextCursor {
            query.cursor = next
            page = try await catalog.assets(query, owner: anna)
            seen += page.assets.map(\.id)
        }
        #expect(seen == expected, "one order across both libraries, page by page")
        query.cursor = page.previousCursor
        query.direction = .newer
        query.limit = 5
        #expect(try await catalog.assets(query, owner: anna).assets.map(\.id) == Array(expected.dropLast()), "and back")
        query.cursor = nil
        query.direction = .older
        #expect(try await catalog.days(query, owner: anna).map(\.count).reduce(0, +) == 3)
        query.search = "canon"
        #expect(try await catalog.days(query, owner: anna).map(\.count).reduce(0, +) == 1, "a search's days are its rows'")
        query.search = nil

        #expect(try await catalog.assets(AssetQuery(), owner: anna).assets.map(\.id) == [hers.id], "the picker's library is hers")
        #expect(
            try await catalog.partnerAssets(query, of: .first, for: anna).assets.map(\.id).sorted() == mine.map(\.id).sorted(),
            "the library seen apart is its owner's alone")
        try await catalog.showPartner(.first, inLibraryOf: anna, false)
        #expect(try await catalog.assets(query, owner: anna).assets.map(\.id) == [hers.id])
    }
}
