import PhotoLibrary
import TestSupport
import Testing

/// An album shared with a viewer and an editor: both see it and its items, the editor adds and
/// takes out their own, nobody but its owner renames or shares it, and what leaves the album (a
/// member, an item trashed) is no longer seen through it.
@Suite struct SharedAlbumTests {
    let anna = Owner(id: 2)
    let ben = Owner(id: 3)
    let cleo = Owner(id: 4)

    @Test(arguments: Engine.withLocalBlobs) func aViewerSeesAndAnEditorAddsTheirOwn(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let (library, catalog) = (fixture.library, fixture.library.catalog)
        let mine = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let bens = try await library.ingest.importFile(at: Corpus.path("photos/lychee__train.jpg"), owner: ben).asset
        let trip = try await catalog.createAlbum(title: "Trip", owner: .first)
        _ = try await catalog.addToAlbum(trip.id, assets: [mine.id], owner: .first)
        let shared = try await catalog.share(trip.id, with: anna, as: .viewer, owner: .first)
        #expect(shared.map(\.role) == [.owner, .viewer])
        _ = try await catalog.share(trip.id, with: ben, as: .editor, owner: .first)
        #expect(
            await libraryErrorCode { _ = try await catalog.share(Library.cameraRollID, with: anna, as: .viewer, owner: .first) }
                == .notAllowed)
        #expect(await libraryErrorCode { _ = try await catalog.share(trip.id, with: cleo, as: .viewer, owner: anna) } == .notYours)

        // Anna sees the album, its item and the item's media; she changes nothing of it.
        let hers = try await catalog.albums(owner: anna)
        #expect(hers.map(\.id) == [Library.cameraRollID, trip.id] && hers.last?.role == .viewer && hers.last?.owner == .first)
        var inTrip = AssetQuery()
        inTrip.collection = .album(trip.id)
        #expect(try await catalog.assets(inTrip, owner: anna).assets.map(\.id) == [mine.id])
        #expect(try await catalog.visibleAsset(mine.id, to: anna).id == mine.id)
        #expect(try await library.derivatives.thumbnail(of: mine.id, size: 256, owner: anna).size != nil)
        #expect(await libraryErrorCode { _ = try await catalog.asset(mine.id, owner: anna) } == .notFound, "seen is not hers")
        #expect(await libraryErrorCode { try await catalog.setFavorite([mine.id], true, owner: anna) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.renameAlbum(trip.id, to: "Mine", owner: anna) } == .notYours)
        #expect(await libraryErrorCode { _ = try await catalog.removeFromAlbum(trip.id, assets: [mine.id], owner: anna) } == .notYours)
        #expect(await libraryErrorCode { _ = try await catalog.addToAlbum(trip.id, assets: [mine.id], owner: anna) } == .notYours)
        // Cleo, not a member, sees none of it.
        #expect(await libraryErrorCode { _ = try await catalog.album(trip.id, owner: cleo) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.assets(inTrip, owner: cleo) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(mine.id, to: cleo) } == .notFound)

        // Ben adds his own (not another's), and takes out only what he put in.
        #expect(await libraryErrorCode { _ = try await catalog.addToAlbum(trip.id, assets: [mine.id], owner: ben) } == .notFound)
        #expect(try await catalog.addToAlbum(trip.id, assets: [bens.id], owner: ben).album.count == 2)
        #expect(try await catalog.visibleAsset(bens.id, to: anna).id == bens.id, "what he added is seen by all of them")
        #expect(try await catalog.visibleAsset(bens.id, to: .first).id == bens.id)
        #expect(try await catalog.removeFromAlbum(trip.id, assets: [mine.id], owner: ben).count == 2, "the owner's stays")
        #expect(try await catalog.removeFromAlbum(trip.id, assets: [bens.id], owner: ben).count == 1)
        _ = try await catalog.addToAlbum(trip.id, assets: [bens.id], owner: ben)
        // His item trashed is out of the album for everyone, and no longer seen.
        _ = try await catalog.trash(bens.id, owner: ben)
        #expect(try await catalog.album(trip.id, owner: anna).count == 1)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(bens.id, to: anna) } == .notFound)
        _ = try await catalog.restore(bens.id, owner: ben)
        #expect(try await catalog.album(trip.id, owner: anna).count == 2)

        // Ben leaves, taking his item; the owner takes Anna out; neither sees the album then.
        try await catalog.unshare(trip.id, from: ben, owner: ben)
        #expect(try await catalog.album(trip.id, owner: .first).count == 1)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(bens.id, to: .first) } == .notFound)
        #expect(await libraryErrorCode { try await catalog.unshare(trip.id, from: anna, owner: ben) } == .notFound)
        try await catalog.unshare(trip.id, from: anna, owner: .first)
        #expect(try await catalog.members(of: trip.id, owner: .first).map(\.member) == [.first])
        #expect(await libraryErrorCode { _ = try await catalog.album(trip.id, owner: anna) } == .notFound)
        #expect(await libraryErrorCode { _ = try await catalog.visibleAsset(mine.id, to: anna) } == .notFound)
        #expect(try await catalog.albums(owner: anna).map(\.id) == [Library.cameraRollID])
    }
}
