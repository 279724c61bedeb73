import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Links for people without an account, as the library keeps them, on both engines: what each
/// shows and in which order, a page at a time; an item out of a link, in the trash or gone is
/// absent to its guests; revoking, deleting the album and the owner leaving end links.
@Suite struct ShareLinkCatalogTests {
    let anna = Owner(id: 2)
    let options = ShareLink.Options(removeLocation: true, allowDownload: false, allowUpload: false)

    @Test(arguments: Engine.withLocalBlobs) func aLinkShowsWhatItWasMadeOf(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let catalog = fixture.library.catalog
        var ids: [String] = []
        for file in ["photos/exifsamples__Canon_40D.jpg", "photos/lychee__train.jpg", "photos/exifsamples__Nikon_D70.jpg"] {
            ids.append(try await fixture.importCorpus(file).asset.id)
        }
        let chosen = [ids[2], ids[0], ids[1]]
        let link = try await catalog.createLink(
            NewShareLink(content: .assets(chosen), lifetime: 3600, password: nil, options: options), id: "items", owner: .first)
        #expect(link.content == .assets(count: 3) && link.isLive() && !link.isLive(at: Date().addingTimeInterval(3601)))
        let first = try await catalog.linkedAssets(link, cursor: nil, limit: 2)
        #expect(first.assets.map(\.id) == Array(chosen.prefix(2)))
        let second = try await catalog.linkedAssets(link, cursor: first.nextCursor, limit: 2)
        #expect(second.assets.map(\.id) == [chosen[2]] && second.nextCursor == nil)
        #expect(await libraryErrorCode { _ = try await catalog.linkedAssets(link, cursor: "-4", limit: 2) } == .invalidRequest)

        _ = try await catalog.trash(ids[0], owner: .first)
        #expect(try await catalog.linkedAssets(link, cursor: nil, limit: 10).assets.map(\.id) == [chosen[0], chosen[2]])
        #expect(await libraryErrorCode { _ = try await catalog.linkedAsset(ids[0], in: link) } == .notFound, "in the trash")
        #expect(try await catalog.linkedAsset(ids[1], in: link).id == ids[1])

        let album = try await catalog.createAlbum(title: "Trip", owner: .first)
        _ = try await catalog.addToAlbum(album.id, assets: [ids[1]], owner: .first)
        let albumLink = try await catalog.createLink(
            NewShareLink(content: .album(album.id), lifetime: nil, password: "kept", options: options), id: "album", owner: .first)
        #expect(try await catalog.linkedAssets(albumLink, cursor: nil, limit: 10).assets.map(\.id) == [ids[1]])
        #expect(await libraryErrorCode { _ = try await catalog.linkedAsset(ids[2], in: albumLink) } == .notFound, "not in the album")
        #expect(try await catalog.link("album") == albumLink)
        #expect(try await catalog.links(owner: .first).map(\.id).sorted() == ["album", "items"])
        #expect(try await catalog.links(owner: anna).isEmpty)

        // Another's items, album or link are not one's to share or revoke.
        #expect(
            await libraryErrorCode {
                _ = try await catalog.createLink(
                    NewShareLink(content: .assets([ids[1]]), lifetime: nil, password: nil, options: options), id: "x", owner: anna)
            } == .notFound)
        #expect(
            await libraryErrorCode {
                _ = try await catalog.createLink(
                    NewShareLink(content: .album(album.id), lifetime: nil, password: nil, options: options), id: "y", owner: anna)
            } == .notFound)
        #expect(await libraryErrorCode { try await catalog.revokeLink("items", owner: anna) } == .notFound)
        try await catalog.revokeLink("items", owner: .first)
        #expect(await libraryErrorCode { _ = try await catalog.link("items") } == .notFound)

        try await catalog.deleteAlbum(album.id, owner: .first)
        #expect(await libraryErrorCode { _ = try await catalog.link("album") } == .notFound, "the album's links go with it")
    }

    /// A guest's upload lands in the album, marked as from the link; when the owner leaves, their
    /// links stop opening.
    @Test(arguments: Engine.withLocalBlobs) func guestsAddAndLinksEndWithTheirOwner(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let catalog = fixture.library.catalog
        let album = try await catalog.createAlbum(title: "Wedding", owner: anna)
        let link = try await catalog.createLink(
            NewShareLink(
                content: .album(album.id), lifetime: nil, password: nil,
                options: ShareLink.Options(removeLocation: false, allowDownload: true, allowUpload: true)),
            id: "wedding", owner: anna)
        let upload = try await fixture.library.ingest.importFile(at: Corpus.path("photos/exifsamples__Canon_40D.jpg"), owner: anna).asset
        let added = try await catalog.addFromLink(upload.id, link: link, isNew: true)
        #expect(added.fromLink == "wedding" && added.owner == anna)
        #expect(try await catalog.linkedAssets(link, cursor: nil, limit: 10).assets.map(\.id) == [upload.id])

        _ = try await catalog.handOver(from: anna, to: .first, label: "anna")
        #expect(await libraryErrorCode { _ = try await catalog.link("wedding") } == .notFound)
        #expect(try await catalog.asset(upload.id, owner: .first).fromLink == "wedding", "the mark stays")
    }
}
