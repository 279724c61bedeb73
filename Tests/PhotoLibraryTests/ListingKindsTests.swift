import Foundation
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// The kinds a picker's filter tells apart (PHPickerFilter's images, videos, livePhotos,
/// screenshots and slomoVideos), as imports learn them and listings select them, on both engines.
@Suite struct ListingKindsTests {
    /// A PNG that says it is a screenshot as iOS writes it: "Screenshot" as XMP's UserComment.
    static func markedScreenshot(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.file("IMG_0001.png")
        let made = try await Executable.run(program: "/usr/bin/vips", ["black", path, "64", "48", "--bands", "3"])
        #expect(made.status == 0, "\(made.stderr)")
        let marked = try await Executable.run(
            program: "/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-exif:UserComment=Screenshot", path])
        #expect(marked.status == 0, "\(marked.stderr)")
        return path
    }

    @Test(arguments: Engine.withLocalBlobs) func importsLearnTheKindsAndListingsSelectThem(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let directory = TemporaryDirectory()
        let photo = try await fixture.importCorpus("photos/recurser__Landscape_1.jpg").asset
        let live = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        try await fixture.importCorpus("videos/lychee__train.mov")
        let marked = try await fixture.library.ingest.importFile(at: try await Self.markedScreenshot(in: directory), owner: .first).asset
        let named = try await fixture.library.ingest.importFile(
            at: Corpus.path("photos/exifsamples__Canon_40D.jpg"), originalFilename: "Screenshot_20240101-101010.jpg", owner: .first
        ).asset
        let slowMotion = try await fixture.importCorpus("videos/androidx-media__sample_android_slow_motion.mp4").asset
        let movie = try await fixture.importCorpus("videos/androidx-media__sample.mp4").asset

        #expect(slowMotion.captureFrameRate == 240, "the rate the phone states it recorded at")
        #expect(try #require(movie.captureFrameRate) < 31)
        let kind = { (id: String) async throws -> AssetKind in try await fixture.library.catalog.asset(id, owner: .first).kind }
        #expect(try await kind(live.id) == AssetKind(mediaType: .image, isLivePhoto: true, isScreenshot: false, isHighFrameRate: false))
        #expect(try await kind(marked.id).isScreenshot, "by its XMP")
        #expect(try await kind(named.id).isScreenshot, "by its name")
        #expect(try await !kind(photo.id).isScreenshot)
        #expect(try await kind(slowMotion.id).isHighFrameRate)
        #expect(try await !kind(movie.id).isHighFrameRate)

        func listed(_ admits: (AssetKind) -> Bool) async throws -> Set<String> {
            var query = AssetQuery()
            query.kinds = Set(AssetKind.all.filter(admits))
            return Set(try await fixture.library.catalog.assets(query, owner: .first).assets.map(\.id))
        }
        #expect(try await listed { $0.isScreenshot } == [marked.id, named.id])
        #expect(try await listed { $0.isLivePhoto } == [live.id], "the still; its movie is in no listing")
        #expect(try await listed { $0.isHighFrameRate } == [slowMotion.id])
        #expect(try await listed { $0.mediaType == .image && !$0.isScreenshot } == [photo.id, live.id])
        #expect(try await listed { $0.mediaType == .movie || $0.isLivePhoto } == [live.id, slowMotion.id, movie.id])
        #expect(try await listed { _ in false }.isEmpty, "a filter that admits nothing lists nothing")
        #expect(try await listed { _ in true }.count == 6)
    }

    /// A library from before the kinds knows its screenshots by their names once it is opened.
    @Test func screenshotsAlreadyInALibraryAreKnownByName() async throws {
        let directory = TemporaryDirectory("cameraroll-library")
        let folder = DataFolder(directory.path)
        try FileManager.default.createDirectory(atPath: folder.root, withIntermediateDirectories: true)
        let before = try SQLiteDatabase(path: folder.database, migrations: Array(LibrarySchema.sqlite.prefix(8)))
        for (id, name) in [("a", "Screen Shot 2019-03-01 at 10.00.00.png"), ("b", "IMG_0001.png")] {
            _ = try await before.write { connection throws(StorageError) in
                try connection.run(
                    """
                    INSERT INTO assets (id, media_type, blob_hash, byte_size, format, mime_type, original_filename, width, height,
                        sort_date, source, imported_at)
                    VALUES (?, 'public.image', ?, 1, 'png', 'image/png', ?, 1, 1, '2019-03-01', 'upload', '2019-03-01T10:00:00Z')
                    """, [id, String(repeating: id, count: 64), name])
            }
        }
        let library = try Library(folder: folder)
        #expect(try await library.catalog.asset("a", owner: .first).isScreenshot)
        #expect(try await !library.catalog.asset("b", owner: .first).isScreenshot)
    }
}
