import Foundation
import Imaging
import PhotoLibrary
import Synchronization
import TestSupport
import Testing

/// A HEIF's or AVIF's first decode runs in a child process, which a decoder's abort kills
/// instead of the library.
@Suite struct ImportDecoderTests {
    static let heifPhotos = [
        "photos/pigallery2__IMG_0307.HEIC", "photos/exifsamples__iphone_13_pro_max.HEIC", "photos/libvips__avif-orientation-6.avif",
    ]

    func options(decoder: ImageDecoderCommand?) -> Library.Options {
        var options = Library.Options()
        options.imageDecoder = decoder
        return options
    }

    @Test(arguments: heifPhotos)
    func theDecodeApartGivesWhatTheDecodeInProcessGives(file: String) async throws {
        let apart = try LibraryFixture(
            options(decoder: ImageDecoderCommand(executable: Executable.path, arguments: [ImportDecoder.command])))
        let here = try LibraryFixture(options(decoder: nil))
        let a = try await apart.importCorpus(file).asset
        let b = try await here.importCorpus(file).asset
        #expect(
            a.width == b.width && a.height == b.height && a.orientation == b.orientation && a.captureDate == b.captureDate
                && a.cameraModel == b.cameraModel)
        let thumbnailApart = try await apart.library.derivatives.thumbnail(of: a.id, size: 256, owner: .first)
        let thumbnailHere = try await here.library.derivatives.thumbnail(of: b.id, size: 256, owner: .first)
        #expect(thumbnailApart.size == thumbnailHere.size)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: thumbnailApart.path)) == Data(contentsOf: URL(fileURLWithPath: thumbnailHere.path)))
        #expect(apart.workFiles.isEmpty, "the decoder's outputs are gone")
    }

    /// The child aborts, as libheif does on a file it cannot parse: that one import is refused,
    /// in plain words, and the library goes on.
    @Test(arguments: ["ABRT", "SEGV", "KILL"])
    func aDecoderThatDiesRefusesThatFileOnly(signal: String) async throws {
        let dies = ImageDecoderCommand(
            executable: "/bin/sh", arguments: ["-c", "echo 'bitstream.cc:169: Assertion failed' >&2; kill -\(signal) $$", "sh"])
        let lines = LogLines()
        var dying = options(decoder: dies)
        dying.log = lines.add
        let fixture = try LibraryFixture(dying)
        do throws(LibraryError) {
            _ = try await fixture.importCorpus(Self.heifPhotos[1])
            Issue.record("imported")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message == "The image data is damaged and cannot be decoded.")
        }
        #expect(lines.all.contains { $0.contains("crashed") && $0.contains("Assertion failed") }, "\(lines.all)")
        #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 0)
        #expect(fixture.files(in: "blobs").isEmpty)
        // Formats decoded in-process are not affected.
        let jpeg = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg")
        #expect(jpeg.asset.width == 100)
    }

    /// A decoder that cannot be run at all is the server's failure, not the file's.
    @Test func aMissingDecoderIsNotTheFilesFault() async throws {
        let fixture = try LibraryFixture(options(decoder: ImageDecoderCommand(executable: "/nonexistent/cameraroll", arguments: [])))
        do throws(LibraryError) {
            _ = try await fixture.importCorpus(Self.heifPhotos[1])
            Issue.record("imported")
        } catch {
            #expect(error.code == .io)
        }
    }
}

private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    @Sendable func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
