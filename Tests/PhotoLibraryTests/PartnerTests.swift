import PhotoLibrary
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
}
