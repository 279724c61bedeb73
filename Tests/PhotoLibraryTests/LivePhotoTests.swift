import Foundation
import TestSupport
import Testing

@testable import PhotoLibrary

/// The corpus's two Live Photos (an iPhone 6s JPEG and an iPhone 13 Pro HEIC, each with its
/// movie) become one asset each, whichever half is imported first, on both engines.
@Suite struct LivePhotoTests {
    static let pairs = [
        ("photos/lychee__train.jpg", "videos/lychee__train.mov"),
        ("photos/pigallery2__IMG_7943.HEIC", "videos/pigallery2__IMG_7943_HEVC.MOV"),
    ]

    @Test(arguments: Engine.withLocalBlobs, [true, false])
    func theHalvesPairWhicheverComesFirst(engine: Engine, stillFirst: Bool) async throws {
        let fixture = try await LibraryFixture(engine)
        let other = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        for (stillFile, movieFile) in Self.pairs {
            let first = try await fixture.importCorpus(stillFirst ? stillFile : movieFile, saveToCameraRoll: true).asset
            #expect(first.livePhotoMovie == nil && first.livePhotoStill == nil, "alone, a half is an ordinary asset")
            let second = try await fixture.importCorpus(stillFirst ? movieFile : stillFile, saveToCameraRoll: true).asset
            let (still, movie) = stillFirst ? (first.id, second.id) : (second.id, first.id)
            #expect(try await fixture.library.catalog.asset(still, owner: .first).livePhotoMovie == movie)
            #expect(try await fixture.library.catalog.asset(movie, owner: .first).livePhotoStill == still)
            #expect(try await fixture.library.catalog.asset(movie, owner: .first).mediaType == .movie, "the movie stays what it is")
        }
        let listed = try await fixture.library.catalog.assets(AssetQuery(), owner: .first).assets
        #expect(listed.count == 3, "two Live Photos and the other photo")
        #expect(listed.allSatisfy { $0.mediaType == .image })
        #expect(Set(listed.compactMap(\.livePhotoMovie)).count == 2)
        #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 3)
        #expect(
            try await fixture.library.catalog.count(.savedPhotosAlbum, owner: .first) == 2,
            "the Camera Roll counts the Live Photos once each")
        #expect(try await fixture.library.catalog.albums(owner: .first).first { $0.id == "cameraRoll" }?.count == 2)
        #expect(listed.contains { $0.id == other.id && $0.livePhotoMovie == nil })
    }

    @Test func aStillWithoutItsMovieAndAMovieOfAnotherPhotoStayApart() async throws {
        let fixture = try LibraryFixture()
        let still = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        let movie = try await fixture.importCorpus("videos/pigallery2__IMG_7943_HEVC.MOV").asset
        #expect(try await fixture.library.catalog.asset(still.id, owner: .first).livePhotoMovie == nil)
        #expect(try await fixture.library.catalog.asset(movie.id, owner: .first).livePhotoStill == nil)
        #expect(try await fixture.library.catalog.assets(AssetQuery(), owner: .first).assets.count == 2)
    }

    @Test func deletingTheStillDeletesItsMovie() async throws {
        let fixture = try LibraryFixture()
        let still = try await fixture.importCorpus("photos/lychee__train.jpg").asset
        let movie = try await fixture.importCorpus("videos/lychee__train.mov").asset
        try await fixture.library.ingest.deletePermanently(still.id)
        await #expect(throws: LibraryError.self) { try await fixture.library.catalog.asset(movie.id, owner: .first) }
        #expect(try await fixture.library.collectGarbage(grace: 0).blobsRemoved == 0, "both originals went with their rows")
    }

    /// An Android Motion Photo's movie (its last bytes, which its XMP announces) becomes the
    /// motion of its still, as a Live Photo's; the still's original keeps every byte.
    @Test(arguments: Engine.withLocalBlobs) func aMotionPhotosMovieIsItsMotion(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let file = "photos/androidx-media__sample_MP.heic"
        let still = try await fixture.importCorpus(file).asset
        let movieID = try #require(still.livePhotoMovie)
        let movie = try await fixture.library.catalog.asset(movieID, owner: .first)
        #expect(movie.mediaType == .movie && movie.livePhotoStill == still.id)
        #expect(movie.width == 80 && movie.height == 60 && movie.byteSize == 28803)
        #expect(abs((movie.duration ?? 0) - 1.23) < 0.1)
        let original = try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: still)))
        #expect(original == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))), "the still's original is whole")
        #expect(try await fixture.library.catalog.assets(AssetQuery(), owner: .first).assets.map(\.id) == [still.id])
        #expect(try await fixture.importCorpus(file).isDuplicate, "the same motion photo again is the same asset")
        #expect(try await fixture.library.catalog.asset(still.id, owner: .first).livePhotoMovie == movieID)
    }

    /// The older Google form, MicroVideo: a JPEG whose XMP says `GCamera:MicroVideo="1"` and
    /// `GCamera:MicroVideoOffset` (the movie's length, counted from the end of the file), with an
    /// MP4 appended. No corpus file is one, so one is made here: an XMP segment written into a
    /// corpus JPEG, which exiftool reads back, and a corpus MP4 after it. Its movie becomes the
    /// still's motion, byte for byte, and plays for as long as the MP4 does.
    @Test func aMicroVideosMovieIsItsMotion() async throws {
        let fixture = try LibraryFixture()
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/exifsamples__Canon_40D.jpg")))
        let mp4 = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("videos/pigallery2__20240128_105420.mp4")))
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" \
            GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\(mp4.count)" GCamera:MicroVideoPresentationTimestampUs="0"/>\
            </rdf:RDF></x:xmpmeta>
            """
        // An APP1 segment: its length counts itself and the XMP namespace before the packet.
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let segment = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let folder = TemporaryDirectory()
        let file = folder.file("MVIMG_20240128_105420.jpg")
        try (jpeg.prefix(2) + segment + jpeg.dropFirst(2) + mp4).write(to: URL(fileURLWithPath: file))
        let read = try await Executable.run(program: "/usr/bin/exiftool", ["-s3", "-XMP-GCamera:MicroVideoOffset", file])
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(mp4.count)", "exiftool reads it as a MicroVideo")

        let still = try await fixture.library.ingest.importFile(at: file, owner: .first).asset
        #expect(still.mediaType == .image && still.width == 100 && still.height == 68)
        let movieID = try #require(still.livePhotoMovie, "the MicroVideo's movie is its motion")
        let movie = try await fixture.library.catalog.asset(movieID, owner: .first)
        #expect(movie.mediaType == .movie && movie.livePhotoStill == still.id && movie.width == 80 && movie.height == 46)
        #expect(try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: movie))) == mp4)
        let played = try await fixture.library.mediaJobs.playableVideo(of: movieID, owner: .first)
        let probe = try await Executable.run(
            program: "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", played.path])
        #expect(abs((Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 1.001) < 0.05, "\(probe.stdout)")
        #expect(abs((movie.duration ?? 0) - 1.001) < 0.05)
        #expect(try await fixture.library.catalog.assets(AssetQuery(), owner: .first).assets.map(\.id) == [still.id], "one item")
    }

    @Test func identifiersAreShortPrintableText() {
        #expect(LivePhoto.identifier("E905E6C6-C747-4805-942F-9904A0281F02") == "E905E6C6-C747-4805-942F-9904A0281F02")
        for bad in ["", "with space", "tab\there", String(repeating: "A", count: 65), "é", "\u{0}x"] {
            #expect(LivePhoto.identifier(bad) == nil, "\(bad)")
        }
    }
}
