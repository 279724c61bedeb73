import PhotoLibrary
import TestSupport
import Testing

/// Two people in one library: the same bytes are one blob and two assets, and each lists,
/// counts, organises and deletes only their own; the other's ids are not there.
@Suite struct TwoPeopleTests {
    let anna = Owner(id: 2)

    /// Whether `body` failed as an asset or album that is not there does.
    func isNotFound(_ body: () async throws -> Void) async -> Bool { await libraryErrorCode(body) == .notFound }

    @Test(arguments: Engine.withLocalBlobs) func eachHasTheirOwnLibrary(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let (library, catalog) = (fixture.library, fixture.library.catalog)
        // A Camera Roll is there for her before she has put anything in it.
        #expect(try await catalog.album(Library.cameraRollID, owner: anna).count == 0)
        let photo = "photos/exifsamples__Canon_40D.jpg"
        let mine = try await fixture.importCorpus(photo, saveToCameraRoll: true).asset
        let hers = try await library.ingest.importFile(at: Corpus.path(photo), saveToCameraRoll: true, owner: anna).asset
        let other = try await library.ingest.importFile(at: Corpus.path("photos/lychee__train.jpg"), owner: anna).asset
        #expect(hers.id != mine.id && hers.blobHash == mine.blobHash)
        #expect([mine.owner, hers.owner] == [Owner.first, anna])
        #expect(fixture.files(in: "blobs").count == 2, "the same bytes are one blob")
        let again = try await library.ingest.importFile(at: Corpus.path(photo), owner: anna)
        #expect(again.isDuplicate, "and one asset for each person")
        #expect(again.asset.id == hers.id)

        #expect(try await catalog.assets(AssetQuery(), owner: .first).assets.map(\.id) == [mine.id])
        #expect(Set(try await catalog.assets(AssetQuery(), owner: anna).assets.map(\.id)) == [hers.id, other.id])
        #expect(try await catalog.count(.photoLibrary, owner: .first) == 1)
        #expect(try await catalog.count(.photoLibrary, owner: anna) == 2)
        #expect(try await catalog.days(AssetQuery(), owner: anna).map(\.count).reduce(0, +) == 2)
        // Each has a Camera Roll, which each calls `cameraRoll`.
        #expect(try await catalog.count(.savedPhotosAlbum, owner: .first) == 1)
        #expect(try await catalog.count(.savedPhotosAlbum, owner: anna) == 1)
        #expect(try await catalog.assets(AssetQuery(source: .savedPhotosAlbum), owner: anna).assets.map(\.id) == [hers.id])
        #expect(try await catalog.asset(hers.id, owner: anna).inCameraRoll)
        let annasAlbums = try await catalog.albums(owner: anna)
        #expect(annasAlbums.map(\.id) == [Library.cameraRollID])
        #expect(annasAlbums.first?.count == 1)

        // Another's ids are not there, for everything one may do with one's own.
        #expect(await isNotFound { _ = try await catalog.asset(hers.id, owner: .first) })
        #expect(await isNotFound { try await catalog.setFavorite([hers.id], true, owner: .first) })
        #expect(await isNotFound { try await catalog.setTrashed([mine.id, hers.id], true, owner: .first) })
        #expect(await isNotFound { _ = try await catalog.trash(hers.id, owner: .first) })
        #expect(await isNotFound { _ = try await catalog.setEdit(nil, for: hers.id, owner: .first) })
        #expect(await isNotFound { _ = try await catalog.saveToCameraRoll(other.id, owner: .first) })
        #expect(await isNotFound { _ = try await catalog.addToAlbum(Library.cameraRollID, assets: [other.id], owner: .first) })
        #expect(await isNotFound { _ = try await library.derivatives.thumbnail(of: hers.id, size: 256, owner: .first) })
        #expect(library.derivatives.readyThumbnail(of: hers.id, size: 256, owner: .first) == nil)
        #expect(library.derivatives.readyThumbnail(of: hers.id, size: 256, owner: anna) != nil, "hers are ready for her")

        let trip = try await catalog.createAlbum(title: "Trip", owner: anna)
        _ = try await catalog.addToAlbum(trip.id, assets: [other.id], owner: anna)
        #expect(await isNotFound { _ = try await catalog.album(trip.id, owner: .first) })
        var inTrip = AssetQuery()
        inTrip.collection = .album(trip.id)
        let tripsItems = { [inTrip] () async throws -> Void in _ = try await catalog.assets(inTrip, owner: .first) }
        #expect(await isNotFound(tripsItems))
        #expect(await isNotFound { _ = try await catalog.renameAlbum(trip.id, to: "Mine", owner: .first) })
        #expect(await isNotFound { _ = try await catalog.addToAlbum(trip.id, assets: [mine.id], owner: .first) })
        #expect(await isNotFound { try await catalog.deleteAlbum(trip.id, owner: .first) })
        #expect(try await catalog.albums(owner: .first).map(\.id) == [Library.cameraRollID])
        #expect(try await catalog.album(trip.id, owner: anna).count == 1)

        // Empty Trash is one's own trash.
        _ = try await catalog.trash(mine.id, owner: .first)
        _ = try await catalog.trash(other.id, owner: anna)
        await #expect(throws: LibraryError.self) { try await library.ingest.deleteFromTrash([other.id], owner: .first) }
        #expect(try await library.ingest.emptyTrash(owner: .first) == 1)
        #expect(try await catalog.asset(other.id, owner: anna).trashedDate != nil, "hers waits in her trash")
        #expect(fixture.files(in: "blobs").count == 2, "her asset keeps the bytes mine had")
        #expect(try await library.ingest.emptyTrash(owner: anna) == 1)
        #expect(fixture.files(in: "blobs").count == 1)
        #expect(try await catalog.usage(owner: anna) == Int64(hers.byteSize), "what is deleted for good no longer counts")
    }

    /// When a person leaves, nothing of theirs is lost: their items wait in an admin's Recently
    /// Deleted (a Live Photo whole), their albums are the admin's, an item the admin had already
    /// stands for theirs in their album, and every count follows.
    @Test(arguments: Engine.withLocalBlobs) func aLeavingPersonsLibraryGoesToAnAdminsTrash(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let (library, catalog) = (fixture.library, fixture.library.catalog)
        let shared = "photos/exifsamples__Canon_40D.jpg"
        let mine = try await fixture.importCorpus(shared).asset
        let importHers = { (file: String) async throws -> Asset in
            try await library.ingest.importFile(at: Corpus.path(file), saveToCameraRoll: true, owner: anna).asset
        }
        let twin = try await importHers(shared)
        let still = try await importHers("photos/lychee__train.jpg")
        let movie = try await importHers("videos/lychee__train.mov").id
        #expect(try await catalog.asset(still.id, owner: anna).livePhotoMovie == movie)
        let trashed = try await library.ingest.importFile(at: Corpus.path("photos/exifsamples__Nikon_D70.jpg"), owner: anna).asset
        _ = try await catalog.trash(trashed.id, owner: anna)
        try await catalog.setFavorite([still.id], true, owner: anna)
        let trip = try await catalog.createAlbum(title: "Trip", owner: anna)
        _ = try await catalog.addToAlbum(trip.id, assets: [twin.id, still.id], owner: anna)
        let blobs = fixture.files(in: "blobs").count
        let (myBytes, herBytes) = (try await catalog.usage(owner: .first), try await catalog.usage(owner: anna))
        #expect(myBytes == Int64(mine.byteSize))
        #expect(
            herBytes == [twin, still, trashed].map { Int64($0.byteSize) }.reduce(0, +)
                + Int64(try await catalog.asset(movie, owner: anna).byteSize))

        await #expect(throws: LibraryError.self) { _ = try await catalog.handOver(from: anna, to: anna, label: "from Anna") }
        let handed = try await catalog.handOver(from: anna, to: .first, label: "from Anna")
        #expect(handed == HandOver(moved: 2, merged: 1, albums: 1))
        #expect(fixture.files(in: "blobs").count == blobs, "no bytes went")
        #expect(try await catalog.usage(owner: anna) == 0)
        #expect(try await catalog.usage(owner: .first) == myBytes + herBytes - Int64(twin.byteSize), "what the admin held counts once")

        // Nothing is hers now, and nothing is counted for her.
        #expect(try await catalog.assets(AssetQuery(), owner: anna).assets.isEmpty)
        #expect(try await catalog.count(.photoLibrary, owner: anna) == 0)
        #expect(try await catalog.albums(owner: anna).map(\.count) == [0])
        #expect(await isNotFound { _ = try await catalog.asset(still.id, owner: anna) })
        #expect(await isNotFound { _ = try await catalog.asset(twin.id, owner: nil) }, "the admin's own stands for it")

        // The admin's library is as it was; the rest waits in their Recently Deleted.
        #expect(try await catalog.assets(AssetQuery(), owner: .first).assets.map(\.id) == [mine.id])
        #expect(try await catalog.count(.photoLibrary, owner: .first) == 1)
        var deleted = AssetQuery()
        deleted.collection = .recentlyDeleted
        let inTrash = try await catalog.assets(deleted, owner: .first).assets
        #expect(Set(inTrash.map(\.id)) == [still.id, trashed.id])
        #expect(try await catalog.days(deleted, owner: .first).map(\.count).reduce(0, +) == 2, "the days follow the rows")
        let movedStill = try await catalog.asset(still.id, owner: .first)
        #expect(movedStill.livePhotoMovie == movie && movedStill.isFavorite, "a Live Photo goes whole, as it was")
        #expect(library.derivatives.readyThumbnail(of: still.id, size: 256, owner: anna) == nil)

        // Her album is the admin's, titled whence it came, holding the admin's own item for hers.
        let albums = try await catalog.albums(owner: .first)
        let theirs = try #require(albums.first { $0.id == trip.id })
        #expect(theirs.title == "Trip (from Anna)")
        var inTrip = AssetQuery()
        inTrip.collection = .album(trip.id)
        #expect(try await catalog.assets(inTrip, owner: .first).assets.map(\.id) == [mine.id], "the still is in the trash")
        // Her Camera Roll's items are in the admin's: the admin's own for hers, and hers once restored.
        #expect(try await catalog.asset(mine.id, owner: .first).inCameraRoll)
        #expect(try await catalog.count(.savedPhotosAlbum, owner: .first) == 1)
        _ = try await catalog.restore(still.id, owner: .first)
        #expect(try await catalog.asset(still.id, owner: .first).inCameraRoll)
        #expect(try await catalog.count(.savedPhotosAlbum, owner: .first) == 2)
        #expect(try await catalog.album(trip.id, owner: .first).count == 2)
    }
}
