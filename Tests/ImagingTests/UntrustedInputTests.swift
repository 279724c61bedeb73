import Foundation
import Imaging
import TestSupport
import Testing

@Suite struct UntrustedInputTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    /// The GIF declares a 65535x65535 frame in a 32x32 screen and ends right there.
    @Test(arguments: [
        ("bad/libvips__17000x17000.avif", ImagingError.Code.tooLarge), ("bad/sharp__65536-uint32-limit.png", .tooLarge),
        ("bad/sharp__giant-image.jpg", .tooLarge), ("bad/pillow__decompression_bomb.gif", .truncated),
    ])
    func bombsAreRefusedFromTheHeader(file: String, code: ImagingError.Code) throws {
        let started = ContinuousClock.now
        do {
            _ = try imaging.render(
                Corpus.path(file), [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))])
            Issue.record("\(file) was rendered")
        } catch {
            #expect(error.code == code, "\(file): \(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func thePixelLimitIsConfigurable() throws {
        let strict = try Imaging(maxPixels: 1_000_000)
        #expect(throws: ImagingError.self) { _ = try strict.probe(Corpus.path("photos/recurser__Landscape_1.jpg")) }
        let info = try imaging.probe(Corpus.path("bad/androidx-media__black_large.webp"))
        #expect(info.width == 16000)
    }

    /// libjpeg reports a missing end only as a warning, and only if it reads that far, so a
    /// decode alone cannot be trusted to notice: the file's structure says it.
    @Test(arguments: [
        "bad/sharp__truncated.jpg", "bad/pillow__truncated_jpeg.jpg", "bad/pillow__truncated_image.png",
        "bad/libvips__truncated.gif", "bad/photoprism__broken.jpg", "bad/pigallery2__imageSizeError.jpg",
        "bad/libpng__huge_IDAT.png",
    ])
    func truncatedFilesAreRecognised(file: String) throws {
        #expect(throws: ImagingError(.truncated, "The image file ends before its data does.")) {
            try imaging.checkStructure(Corpus.path(file))
        }
        do {
            _ = try imaging.render(
                Corpus.path(file), [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))])
        } catch {
            #expect(error.code == .truncated, "\(file): \(error)")
            #expect(!error.message.contains("/"), "the message names a path: \(error.message)")
        }
    }

    @Test(arguments: decodablePhotos)
    func wholeFilesAreNotCalledTruncated(photo: String) throws {
        try imaging.checkStructure(Corpus.path(photo))
    }

    @Test(arguments: [
        "bad/exifsamples__corrupted.jpg", "bad/pigallery2__corrupted_city.JPG", "bad/pillow__broken.png", "bad/sharp__corrupt-header.jpg",
    ])
    func corruptFilesAreNotCalledTruncated(file: String) throws {
        try imaging.checkStructure(Corpus.path(file))
    }

    /// libpng__badcrc.png decoded on some runs and failed on others under load.
    @Test func aPNGChunkWithAWrongCRCIsDamage() {
        #expect(throws: ImagingError(.corrupt, "The image file is damaged: a checksum does not match its data.")) {
            try imaging.checkStructure(Corpus.path("bad/libpng__badcrc.png"))
        }
    }

    @Test(arguments: [
        "bad/payloads__SVG_XSS1.svg", "bad/payloads__convert_local_etc_passwd.svg", "bad/payloads__ssrf_svg_image.svg",
        "bad/payloads__CVE-2021-22204_exiftool_echo.jpg", "bad/payloads__read_passwd.avi", "bad/photoprism__empty.jpg",
        "bad/libheif__github_15.heic",
    ])
    func foreignFormatsNeverReachALoader(file: String) {
        #expect(throws: ImagingError.self) { _ = try imaging.probe(Corpus.path(file)) }
        do {
            _ = try imaging.probe(Corpus.path(file))
        } catch {
            #expect(error.code == .unsupportedType)
        }
    }
}
