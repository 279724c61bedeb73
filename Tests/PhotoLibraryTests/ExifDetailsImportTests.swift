import Imaging
import PhotoLibrary
import TestSupport
import Testing

/// A photo's lens, exposure and location (a movie's location), learnt at import and kept in the
/// library's row on each engine; what the probe reads is ImagingTests' to check against exiftool.
@Suite struct ExifDetailsImportTests {
    static let photos = [
        "photos/exifsamples__DSCN0010.jpg", "photos/lychee__train.jpg", "photos/exifsamples__Canon_40D.jpg",
        "photos/exifsamples__Kodak_CX7530.jpg", "photos/lychee__undefined-exif-tag.jpg",
    ]

    @Test(arguments: Engine.withLocalBlobs) func anImportStoresThemAndTheAssetGivesThemBack(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let imaging = try Imaging()
        for file in Self.photos {
            let probed = try imaging.probe(Corpus.path(file)).exif
            let imported = try await fixture.importCorpus(file).asset
            #expect(imported.exif == probed, "\(file)")
            #expect(try await fixture.library.catalog.asset(imported.id, owner: .first).exif == probed, "\(file)")
        }
        let nikon = try await fixture.importCorpus(Self.photos[0]).asset
        #expect(nikon.exif.fNumber == 5.9 && nikon.exif.iso == 64 && nikon.exif.focalLength == 24 && nikon.exif.exposureTime == 1.0 / 75)
        #expect(nikon.exif.latitude != nil && nikon.exif.longitude != nil && nikon.hasGPS)

        // A movie's position is its container's; it has no lens or exposure.
        let movie = try await fixture.importCorpus("videos/androidx-media__sample.mp4").asset
        #expect(try await fixture.library.catalog.asset(movie.id, owner: .first).exif == ExifDetails(latitude: 40.68, longitude: -74.5))
        #expect(movie.hasGPS && movie.place?.region == "New Jersey")
        let unplaced = try await fixture.importCorpus("videos/androidx-media__bear-vp9.webm").asset
        #expect(unplaced.exif == ExifDetails() && !unplaced.hasGPS && unplaced.place == nil)
    }

    /// A HEIC's first decode runs in a child process, and its details come back from it as JSON.
    @Test func aHEICDecodedApartKeepsThem() async throws {
        var options = Library.Options()
        options.imageDecoder = ImageDecoderCommand(executable: Executable.path, arguments: [ImportDecoder.command])
        let fixture = try LibraryFixture(options)
        let file = "photos/pigallery2__IMG_7943.HEIC"
        let asset = try await fixture.importCorpus(file).asset
        #expect(asset.exif == (try Imaging().probe(Corpus.path(file)).exif))
        #expect(asset.exif.lensModel == "iPhone 13 Pro back triple camera 5.7mm f/1.5" && asset.exif.latitude != nil)
    }
}
