import Foundation
import TestSupport
import Testing

@testable import PhotoLibrary

/// What the Photos app asks of the library: its views (albums, favourites, Recently Added,
/// unsaved captures, Recently Deleted), a timeline's days, pages both ways from anywhere, and
/// changes to many items at once; on both engines.
@Suite struct PhotosAppLibraryTests {
    /// Eight photos whose capture dates are known (exiftool), two of them on one day.
    static let dated = [
        ("photos/exifsamples__olympus-c960.jpg", "2000-11-07"), ("photos/exifsamples__nikon-e950.jpg", "2001-04-06"),
        ("photos/exifsamples__Kodak_CX7530.jpg", "2005-08-13"), ("photos/exifsamples__Canon_40D.jpg", "2008-05-30"),
        ("photos/exifsamples__DSCN0010.jpg", "2008-10-22"), ("photos/exifsamples__DSCN0021.jpg", "2008-10-22"),
        ("photos/lychee__aarhus.jpg", "2018-05-30"), ("photos/androidx-media__london.jpg", "2023-02-07"),
    ]

    /// The fixture and the dated photos' ids, imported oldest capture last (so import order and
    /// capture order are opposite).
    func library(_ engine: Engine) async throws -> (LibraryFixture, [String]) {
        let fixture = try await LibraryFixture(engine)
        var ids: [String] = []
        for (file, _) in Self.dated.reversed() { ids.insert(try await fixture.importCorpus(file).asset.id, at: 0) }
        return (fixture, ids)
    }

    func listed(_ fixture: LibraryFixture, _ collection: AssetCollection) async throws -> [String] {
        var query = AssetQuery()
        query.collection = collection
        return try await fixture.library.catalog.assets(query, owner: .first).assets.map(\.id)
    }

    @Test(arguments: Engine.withLocalBlobs) func pagesGoBothWaysFromAnyDay(engine: Engine) async throws {
        let (fixture, ids) = try await library(engine)
        let newestFirst = Array(ids.reversed())
        #expect(try await listed(fixture, .library) == newestFirst)
        #expect(try await listed(fixture, .recentlyAdded) == ids, "by import: the 2000 photo came in last")

        // Older pages of three from the top, then newer pages back from the oldest page.
        var query = AssetQuery(limit: 3)
        var pages: [AssetPage] = []
        repeat {
            let page = try await fixture.library.catalog.assets(query, owner: .first)
            pages.append(page)
            query.cursor = page.nextCursor
        } while query.cursor != nil
        #expect(pages.flatMap { $0.assets.map(\.id) } == newestFirst)
        #expect(pages.first?.previousCursor == nil, "nothing is newer than the top")
        query.direction = .newer
        let oldestPage: String = try #require(pages.last?.previousCursor)
        query.cursor = oldestPage
        var back: [String] = try #require(pages.last).assets.map(\.id)
        while let cursor = query.cursor {
            query.cursor = cursor
            let page = try await fixture.library.catalog.assets(query, owner: .first)
            back = page.assets.map(\.id) + back
            query.cursor = page.previousCursor
            #expect(page.nextCursor != nil, "a newer page has older items after it")
        }
        #expect(back == newestFirst, "newer pages join up to the top, each newest first")

        // A jump to a day starts at its newest item and can go newer from there.
        var jump = AssetQuery(limit: 2)
        jump.startingAt = "2008-10-22"
        let landed = try await fixture.library.catalog.assets(jump, owner: .first)
        #expect(landed.assets.map { String($0.captureDate?.prefix(10) ?? "") } == ["2008-10-22", "2008-10-22"])
        jump.startingAt = nil
        jump.direction = .newer
        let previous: String = try #require(landed.previousCursor)
        jump.cursor = previous
        #expect(try await fixture.library.catalog.assets(jump, owner: .first).assets.map(\.id) == Array(newestFirst.prefix(2)))

        let days = try await fixture.library.catalog.days(AssetQuery(), owner: .first)
        #expect(days.map(\.day) == Set(Self.dated.map(\.1)).sorted(by: >))
        #expect(days.first { $0.day == "2008-10-22" }?.count == 2 && days.reduce(0) { $0 + $1.count } == ids.count)
    }

    @Test(arguments: Engine.withLocalBlobs) func albumsFavouritesAndTheTrash(engine: Engine) async throws {
        let (fixture, ids) = try await library(engine)
        let library = fixture.library
        let trip = try await library.catalog.createAlbum(title: "  Trip to Aarhus ", owner: .first)
        #expect(trip.title == "Trip to Aarhus" && trip.count == 0 && trip.coverAssetID == nil && !trip.isBuiltIn)
        await #expect(throws: LibraryError.self) { try await library.catalog.createAlbum(title: " \n ", owner: .first) }
        var album = try await library.catalog.addToAlbum(trip.id, assets: [ids[1], ids[6], ids[3]], owner: .first).album
        #expect(album.count == 3 && album.coverAssetID == ids[6], "the newest is the cover until one is chosen")
        album = try await library.catalog.setAlbumCover(trip.id, to: ids[1], owner: .first)
        #expect(album.coverAssetID == ids[1])
        await #expect(throws: LibraryError.self, "a cover is one of the album's") {
            try await library.catalog.setAlbumCover(trip.id, to: ids[0], owner: .first)
        }
        album = try await library.catalog.removeFromAlbum(trip.id, assets: [ids[1]], owner: .first)
        #expect(album.count == 2 && album.coverAssetID == ids[6], "a cover taken out is no cover")
        #expect(try await listed(fixture, .album(trip.id)) == [ids[6], ids[3]])
        #expect(try await library.catalog.renameAlbum(trip.id, to: "Aarhus", owner: .first).title == "Aarhus")
        let roll = try await library.catalog.album(Library.cameraRollID, owner: .first)
        #expect(roll.isBuiltIn)
        await #expect(throws: LibraryError.self) { try await library.catalog.renameAlbum(Library.cameraRollID, to: "Mine", owner: .first) }
        await #expect(throws: LibraryError.self) { try await library.catalog.deleteAlbum(Library.cameraRollID, owner: .first) }
        await #expect(throws: LibraryError.self, "all or none") {
            try await library.catalog.addToAlbum(trip.id, assets: [ids[0], "nope"], owner: .first)
        }
        #expect(try await library.catalog.album(trip.id, owner: .first).count == 2)

        try await library.catalog.setFavorite([ids[2], ids[5]], true, owner: .first)
        #expect(try await listed(fixture, .favorites) == [ids[5], ids[2]])
        try await library.catalog.setFavorite([ids[5]], false, owner: .first)
        #expect(try await listed(fixture, .favorites) == [ids[2]])

        // The trash: out of every view but its own, in the order things went there.
        try await library.catalog.setTrashed([ids[6]], true, owner: .first)
        // Moments are kept to the millisecond: the second batch must be a later one.
        try await Task.sleep(for: .milliseconds(2))
        try await library.catalog.setTrashed([ids[2], ids[4]], true, owner: .first)
        #expect(try await listed(fixture, .recentlyDeleted).first.map { [ids[2], ids[4]].contains($0) } == true)
        #expect(try await listed(fixture, .recentlyDeleted).last == ids[6])
        #expect(try await !listed(fixture, .library).contains(ids[6]))
        #expect(try await listed(fixture, .favorites).isEmpty)
        let left = try await library.catalog.album(trip.id, owner: .first)
        #expect(left.count == 1 && left.coverAssetID == ids[3])
        await #expect(throws: LibraryError.self, "a trashed item is no favourite") {
            try await library.catalog.setFavorite([ids[6]], true, owner: .first)
        }
        await #expect(throws: LibraryError.self, "only from the trash") {
            try await library.ingest.deleteFromTrash([ids[6], ids[0]], owner: .first)
        }
        #expect(try await library.catalog.asset(ids[6], owner: .first).trashedDate != nil, "nothing was deleted")
        try await library.catalog.setTrashed([ids[4]], false, owner: .first)
        #expect(try await listed(fixture, .library).contains(ids[4]))
        try await library.ingest.deleteFromTrash([ids[2]], owner: .first)
        await #expect(throws: LibraryError.self) { try await library.catalog.asset(ids[2], owner: .first) }

        // Thirty days after, what is still in the trash goes for good.
        #expect(try await library.ingest.purgeTrash(now: Date().addingTimeInterval(29 * 24 * 3600)) == 0)
        #expect(try await library.ingest.purgeTrash(now: Date().addingTimeInterval(31 * 24 * 3600)) == 1)
        await #expect(throws: LibraryError.self) { try await library.catalog.asset(ids[6], owner: .first) }
        try await library.catalog.deleteAlbum(trip.id, owner: .first)
        #expect(try await library.catalog.asset(ids[3], owner: .first).trashedDate == nil, "an album's items outlive it")
        #expect(try await library.catalog.albums(owner: .first).map(\.id) == [Library.cameraRollID])
    }

    @Test func aCaptureNobodySavedHasAViewOfItsOwnUntilItIsSaved() async throws {
        let fixture = try await LibraryFixture(.sqlite)
        let capture = try await fixture.importCorpus("photos/lychee__train.jpg", source: .camera).asset
        #expect(capture.isUnsaved)
        #expect(try await listed(fixture, .unsavedCaptures) == [capture.id])
        #expect(try await listed(fixture, .library).isEmpty)
        await #expect(throws: LibraryError.self, "not in a user's album") {
            let album = try await fixture.library.catalog.createAlbum(title: "Later", owner: .first)
            _ = try await fixture.library.catalog.addToAlbum(album.id, assets: [capture.id], owner: .first)
        }
        _ = try await fixture.library.catalog.addToAlbum(Library.cameraRollID, assets: [capture.id], owner: .first)
        #expect(try await listed(fixture, .unsavedCaptures).isEmpty)
        #expect(try await listed(fixture, .album(Library.cameraRollID)) == [capture.id])
    }

    @Test func aLivePhotoGoesToTheTrashAndBackWhole() async throws {
        let fixture = try await LibraryFixture(.sqlite)
        let still = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        let movie = try await fixture.importCorpus("videos/lychee__train.mov").asset
        await #expect(throws: LibraryError.self, "a movie half is part of its still") {
            try await fixture.library.catalog.setTrashed([movie.id], true, owner: .first)
        }
        try await fixture.library.catalog.setTrashed([still.id], true, owner: .first)
        #expect(try await fixture.library.catalog.asset(movie.id, owner: .first).trashedDate != nil)
        try await fixture.library.catalog.setTrashed([still.id], false, owner: .first)
        #expect(try await fixture.library.catalog.asset(movie.id, owner: .first).trashedDate == nil)
    }
}
