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

    @Test(arguments: [
        "bad/sharp__truncated.jpg", "bad/pillow__truncated_jpeg.jpg", "bad/pillow__truncated_image.png",
        "bad/libvips__truncated.gif", "bad/photoprism__broken.jpg", "bad/pigallery2__imageSizeError.jpg",
    ])
    func truncatedFilesAreRefused(file: String) {
        do {
            _ = try imaging.render(
                Corpus.path(file), [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))])
            Issue.record("\(file) was rendered")
        } catch {
            #expect(error.code == .truncated || error.code == .corrupt, "\(file): \(error)")
            #expect(!error.message.contains(Corpus.root.path), "the message names a path: \(error.message)")
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
