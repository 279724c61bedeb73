import Foundation
import Imaging
import PhotoLibrary
import Storage
import TestSupport
import Testing
import Vocabulary

@Suite struct LibraryBehaviourTests {
    @Test(arguments: Engine.withLocalBlobs) func theSameBytesGiveTheSameAsset(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let first = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg")
        let second = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg")
        #expect(!first.isDuplicate && second.isDuplicate)
        #expect(first.asset.id == second.asset.id)
        #expect(fixture.files(in: "blobs").count == 1)
        #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 1)
    }

    @Test(arguments: Engine.withLocalBlobs) func concurrentImportsOfTheSameBytesMakeOneAsset(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 {
                group.addTask { try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset.id }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
        #expect(fixture.files(in: "blobs").count == 1)
        #expect(fixture.workFiles.isEmpty)
    }

    @Test(arguments: Engine.allCases) func listingIsNewestCaptureFirstAndCursorsCoverEverythingOnce(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let files = Array(importablePhotos.prefix(12)) + ["videos/androidx-media__sample.mp4", "videos/pigallery2__video_rotate.mp4"]
        for file in files { try await fixture.importCorpus(file) }
        let everything = try await fixture.library.catalog.assets(AssetQuery(limit: 100), owner: .first).assets
        #expect(everything.count == files.count)

        var paged: [Asset] = []
        var cursor: String?
        repeat {
            let page = try await fixture.library.catalog.assets(AssetQuery(limit: 5, cursor: cursor), owner: .first)
            #expect(page.assets.count <= 5)
            paged += page.assets
            cursor = page.nextCursor
        } while cursor != nil
        #expect(paged.map(\.id) == everything.map(\.id))

        let dates = everything.map { String(($0.captureDate ?? $0.importDate).prefix(19)) }
        #expect(dates == dates.sorted(by: >))

        let movies = try await fixture.library.catalog.assets(AssetQuery(mediaTypes: [.movie]), owner: .first).assets
        #expect(movies.count == 2 && movies.allSatisfy { $0.mediaType == .movie })
        #expect(try await fixture.library.catalog.count(.photoLibrary, mediaTypes: [.image], owner: .first) == 12)
    }

    @Test(arguments: Engine.allCases) func badQueriesAreRefusedByName(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        for query in [AssetQuery(limit: 0), AssetQuery(limit: 501), AssetQuery(mediaTypes: []), AssetQuery(cursor: "not a cursor!")] {
            do {
                _ = try await fixture.library.catalog.assets(query, owner: .first)
                Issue.record("accepted \(query)")
            } catch {
                #expect(error.code == .invalidRequest)
            }
        }
    }

    @Test(arguments: Engine.allCases) func cameraCapturesStayUnsavedUntilSavedToTheCameraRoll(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let capture = try await fixture.importCorpus("photos/exifsamples__Nikon_D70.jpg", source: .camera).asset
        #expect(capture.isUnsaved && !capture.inCameraRoll)
        #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 0)
        #expect(try await fixture.library.catalog.count(.savedPhotosAlbum, owner: .first) == 0)

        let saved = try await fixture.library.catalog.saveToCameraRoll(capture.id, owner: .first)
        #expect(!saved.isUnsaved && saved.inCameraRoll)
        #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 1)
        #expect(try await fixture.library.catalog.count(.savedPhotosAlbum, owner: .first) == 1)

        let imported = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        #expect(!imported.inCameraRoll)
        #expect(try await fixture.library.catalog.count(.savedPhotosAlbum, owner: .first) == 1)
        let direct = try await fixture.importCorpus("photos/exifsamples__Pentax_K10D.jpg", source: .camera, saveToCameraRoll: true).asset
        #expect(direct.inCameraRoll && !direct.isUnsaved)
        #expect(try await fixture.library.catalog.albums(owner: .first).first { $0.id == Library.cameraRollID }?.count == 2)
    }

    @Test(arguments: Engine.allCases) func unsavedCapturesExpire(engine: Engine) async throws {
        var options = Library.Options()
        options.unsavedRetention = 60
        let fixture = try await LibraryFixture(engine, options)
        let capture = try await fixture.importCorpus("photos/exifsamples__Nikon_D70.jpg", source: .camera).asset
        let kept = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg", source: .camera, saveToCameraRoll: true).asset
        #expect(try await fixture.library.collectGarbage(grace: 0).expiredCaptures == 0)
        let report = try await fixture.library.collectGarbage(grace: 0, now: Date().addingTimeInterval(120))
        #expect(report.expiredCaptures == 1)
        await #expect(throws: LibraryError.self) { _ = try await fixture.library.catalog.asset(capture.id, owner: .first) }
        #expect(try await fixture.library.catalog.asset(kept.id, owner: .first).inCameraRoll)
    }

    @Test(arguments: Engine.withLocalBlobs) func trashRestoreAndDeleteForGood(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let asset = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg", saveToCameraRoll: true).asset
        _ = try await fixture.library.catalog.trash(asset.id, owner: .first)
        #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 0)
        #expect(try await fixture.library.catalog.count(.savedPhotosAlbum, owner: .first) == 0)
        #expect(try await fixture.library.catalog.asset(asset.id, owner: .first).trashedDate != nil)
        _ = try await fixture.library.catalog.restore(asset.id, owner: .first)
        #expect(try await fixture.library.catalog.count(.savedPhotosAlbum, owner: .first) == 1)

        // Importing trashed bytes again brings the asset back rather than making a second one.
        _ = try await fixture.library.catalog.trash(asset.id, owner: .first)
        let again = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg")
        #expect(again.isDuplicate && again.asset.id == asset.id && again.asset.trashedDate == nil)

        _ = try await fixture.library.catalog.trash(asset.id, owner: .first)
        #expect(try await fixture.library.ingest.emptyTrash(owner: .first) == 1)
        #expect(fixture.files(in: "blobs").isEmpty)
        #expect(fixture.files(in: "derived").isEmpty)
        #expect(try await fixture.library.catalog.albums(owner: .first).first?.count == 0)
        await #expect(throws: LibraryError.self) { _ = try await fixture.library.catalog.asset(asset.id, owner: .first) }
    }

    /// Two people may keep the same bytes, each as an asset of their own: deleting one's for good
    /// keeps the original and what was made of it for the other, and the last one takes both.
    @Test(arguments: Engine.withLocalBlobs) func deletingOnePersonsCopyKeepsTheOthers(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let mine = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        // The second person's asset of the same bytes, as their own import makes it.
        _ = try await library.database.write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO assets (id, media_type, blob_hash, byte_size, format, mime_type, width, height, sort_date, source,
                    imported_at, owner_id)
                SELECT 'theirs', media_type, blob_hash, byte_size, format, mime_type, width, height, sort_date, source, imported_at, 2
                FROM assets WHERE id = ?
                """, [mine.id])
        }
        let derived = fixture.files(in: "derived")
        #expect(!derived.isEmpty, "the import made thumbnails")
        _ = try await library.catalog.trash(mine.id, owner: .first)
        #expect(try await library.ingest.emptyTrash(owner: .first) == 1)
        #expect(fixture.files(in: "blobs").count == 1, "the original is still theirs")
        #expect(fixture.files(in: "derived").sorted() == derived.sorted(), "and so is what was made of it")
        let thumbnail = try await library.derivatives.thumbnail(of: "theirs", size: 256, owner: Owner(id: 2))
        #expect(FileManager.default.fileExists(atPath: thumbnail.path))

        _ = try await library.catalog.trash("theirs", owner: Owner(id: 2))
        #expect(try await library.ingest.emptyTrash(owner: Owner(id: 2)) == 1)
        #expect(fixture.files(in: "blobs").isEmpty && fixture.files(in: "derived").isEmpty, "the last asset takes both")
    }

    /// A ready answer comes from memory alone (a server's poll thread asks): the thumbnails an
    /// import made are ready at once, with the file's bytes and the validator a request gets,
    /// until the asset goes.
    @Test func readyThumbnailsCarryTheFileBytesUntilTheAssetGoes() async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let ready = try #require(
            fixture.library.derivatives.readyThumbnail(of: asset.id, size: 256, owner: .first), "made by the import's decode")
        let served = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 256, owner: .first)
        #expect(ready.kept?.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: ready.path))))
        #expect(ready.etag == served.etag && ready.path == served.path)

        _ = try await fixture.library.catalog.trash(asset.id, owner: .first)
        #expect(try await fixture.library.ingest.emptyTrash(owner: .first) == 1)
        #expect(fixture.library.derivatives.readyThumbnail(of: asset.id, size: 256, owner: .first) == nil)
    }

    /// A render keeps its bytes to answer with: what was just made is not read back from the
    /// disk, and the next request for it is answered from memory.
    @Test func aRenderIsAnsweredFromItsOwnBytesAndIsReadyAtOnce() async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let box = PixelSize(width: 120, height: 90)
        #expect(fixture.library.derivatives.readyDisplay(of: asset.id, box: box, owner: .first) == nil)
        let made = try await fixture.library.derivatives.display(of: asset.id, box: box, owner: .first)
        let kept = try #require(made.kept, "a small render carries its bytes")
        #expect(kept.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: made.path))))
        let ready = try #require(fixture.library.derivatives.readyDisplay(of: asset.id, box: box, owner: .first), "ready without a lookup")
        #expect(ready.etag == made.etag && ready.kept?.bytes == kept.bytes)
    }

    @Test(arguments: Engine.withLocalBlobs) func garbageCollectionRemovesOnlyWhatNothingUses(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let kept = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        // An orphan, as a crash between a blob's commit and its row's insert leaves.
        let blobs = "\(fixture.folder.blobs)/ab/cd"
        try FileManager.default.createDirectory(atPath: blobs, withIntermediateDirectories: true)
        let orphan = "\(blobs)/abcd" + String(repeating: "0", count: 60)
        #expect(FileManager.default.createFile(atPath: orphan, contents: Data([1, 2, 3])))

        #expect(try await fixture.library.collectGarbage().blobsRemoved == 0)
        #expect(FileManager.default.fileExists(atPath: orphan))
        #expect(try await fixture.library.collectGarbage(grace: 0).blobsRemoved == 1)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(FileManager.default.fileExists(atPath: try await fixture.library.originalFile(of: kept)))
        #expect(try await fixture.library.verify().isEmpty)
    }

    @Test func exportedOriginalsAreTheExactBytes() async throws {
        let fixture = try LibraryFixture()
        for file in ["photos/exifsamples__Canon_40D.jpg", "videos/androidx-media__sample.mp4", "photos/sharp__p3.png"] {
            let asset = try await fixture.importCorpus(file).asset
            let stored = try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: asset)))
            #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))))
        }
    }
}

/// Rows decode strictly: a row damaged on disk (or written by a bug) is the server's error, said
/// as such, never an asset with made-up values, and a listing does not silently skip it.
@Suite struct DamagedRowTests {
    func damage(_ fixture: LibraryFixture, _ sql: String) async throws {
        let sqlite = try await Executable.run(program: "/usr/bin/sqlite3", [fixture.folder.database, sql])
        #expect(sqlite.status == 0, "sqlite3 could not change the row: \(sqlite.stderr)")
    }

    @Test(arguments: [
        ("width = 'wide'", "width is not an integer"), ("format = 'bmp'", "format names nothing"),
        ("format = 'mp4'", "format is not of its media type"), ("has_gps = 7", "has_gps is neither 0 nor 1"),
        ("edit = '{\"nope\": 1}'", "edit is not an edit"), ("mime_type = x'00ff'", "mime_type is not text"),
    ])
    func aDamagedRowIsAnErrorNeverMadeUpValues(change: String, problem: String) async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/exifsamples__jolla.jpg").asset
        try await damage(fixture, "UPDATE assets SET \(change) WHERE id = '\(asset.id)'")
        do {
            _ = try await fixture.library.catalog.asset(asset.id, owner: .first)
            Issue.record("a damaged row was read as an asset")
        } catch {
            #expect(error.code == .database && error.message.contains(problem), "\(error)")
            #expect(!error.message.contains(fixture.folder.root), "no paths in messages")
        }
        await #expect(throws: LibraryError.self) {
            _ = try await fixture.library.catalog.assets(
                AssetQuery(source: .photoLibrary, mediaTypes: [.image], limit: 10, cursor: nil), owner: .first)
        }
    }
}

/// libvips keeps one error buffer for every thread: two refusals at the same moment must each
/// keep their own code, decided from their own file, not from the other's words.
@Suite struct ConcurrentRefusalTests {
    @Test func refusalsAtTheSameMomentKeepTheirOwnCodes() async throws {
        let fixture = try LibraryFixture()
        let expected = ["bad/sharp__testimgl.jpg": "corrupt", "bad/libvips__17000x17000.avif": "too_large"]
        let codes = await withTaskGroup(of: (String, String).self) { group in
            for _ in 0..<6 {
                for file in expected.keys {
                    group.addTask {
                        do {
                            _ = try await fixture.importCorpus(file)
                            return (file, "imported")
                        } catch let error as LibraryError {
                            return (file, error.code.description)
                        } catch {
                            return (file, "\(error)")
                        }
                    }
                }
            }
            var codes: [(String, String)] = []
            for await code in group { codes.append(code) }
            return codes
        }
        #expect(codes.count == 12)
        for (file, code) in codes { #expect(code == expected[file], "\(file)") }
    }
}

/// A library owns threads (its database's connections, its imaging work) that end when it is
/// dropped (BlockingExecutorTests shows that), so nothing it starts may keep it alive.
@Suite struct LibraryLifetimeTests {
    @Test func aLibraryThatWasUsedIsFreedWhenDropped() async throws {
        weak var dropped: Library?
        do {
            let fixture = try LibraryFixture()
            let asset = try await fixture.importCorpus("photos/exifsamples__jolla.jpg").asset
            _ = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 512, owner: .first)
            _ = try await fixture.library.catalog.assets(AssetQuery(), owner: .first)
            _ = try await fixture.library.collectGarbage()
            dropped = fixture.library
        }
        for _ in 0..<100 where dropped != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(dropped == nil)
    }
}

/// The cluster's stores: the original goes to the bucket, is read back through the local copy
/// byte for byte, and leaves the bucket with its asset.
@Suite struct ClusterStoresTests {
    @Test func anOriginalLivesInTheBucketUntilItsAssetIsDeleted() async throws {
        let fixture = try await LibraryFixture(.postgreSQLAndS3)
        let file = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        let asset = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        #expect(fixture.files(in: "blobs").isEmpty, "nothing of the original in the data folder's blobs")
        #expect(fixture.workFiles.isEmpty)
        let local = try await fixture.library.originalFile(of: asset)
        #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == Data(contentsOf: URL(fileURLWithPath: file)))
        _ = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 256, owner: .first)
        #expect(try await fixture.library.verify().isEmpty)
        _ = try await fixture.library.catalog.trash(asset.id, owner: .first)
        #expect(try await fixture.library.ingest.emptyTrash(owner: .first) == 1)
        #expect(try await fixture.library.collectGarbage(grace: 0).blobsRemoved == 0, "the delete took the blob; nothing is left over")
        await #expect(throws: LibraryError.self) { _ = try await fixture.library.originalFile(of: asset) }
    }
}

@Suite struct SharedRecordTests {
    /// Servers starting at once each offer a record of their own; all of them get the one stored first.
    @Test(arguments: Engine.allCases) func theFirstRecordStoredIsEveryonesAndStays(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let kept = try await withThrowingTaskGroup(of: String.self) { group in
            for offer in 0..<8 { group.addTask { try await library.catalog.sharedRecord("key", orElse: "offer \(offer)") } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(kept.count == 1)
        let first = try #require(kept.first)
        #expect(first.hasPrefix("offer "))
        #expect(try await library.catalog.sharedRecord("key", orElse: "later") == first)
        #expect(try await library.catalog.sharedRecord("other", orElse: "later") == "later")
    }
}
