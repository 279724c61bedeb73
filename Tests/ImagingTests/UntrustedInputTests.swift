import Foundation
import Imaging
import TestSupport
import Testing
import Vocabulary

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

    /// libpng and libnsgif report a missing end only as a warning, and only if they read that
    /// far, so a decode alone cannot be trusted to notice: the file's structure says it.
    @Test(arguments: [
        "bad/pillow__truncated_image.png", "bad/libvips__truncated.gif", "bad/libpng__huge_IDAT.png", "bad/mp4parse__bug-1655846.avif",
    ])
    func truncatedFilesAreRecognisedFromTheirStructure(file: String) throws {
        #expect(throws: ImagingError(.truncated, "The image file ends before its data does.")) {
            try imaging.checkStructure(Corpus.path(file))
        }
    }

    /// An import's decode refuses every truncated file as truncated, the same every time and
    /// under load (a JPEG is judged by libjpeg itself). A later, lenient decode of an accepted
    /// file may let a JPEG's missing end through: libvips was seen to notice only sometimes.
    @Test(arguments: [
        "bad/sharp__truncated.jpg", "bad/pillow__truncated_jpeg.jpg", "bad/pillow__truncated_image.png",
        "bad/libvips__truncated.gif", "bad/photoprism__broken.jpg", "bad/pigallery2__imageSizeError.jpg",
        "bad/libpng__huge_IDAT.png",
    ])
    func truncatedFilesAreRefusedAsTruncated(file: String) throws {
        let isJPEG = try Imaging.sniff(path: Corpus.path(file)) == .jpeg
        for damage in isJPEG ? [DamagePolicy.refuseDamage] : [.refuseTruncation, .refuseDamage] {
            do {
                try imaging.checkStructure(Corpus.path(file))
                _ = try imaging.render(
                    Corpus.path(file), [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))],
                    damage: damage)
                Issue.record("\(file) was rendered")
            } catch {
                #expect(error.code == .truncated, "\(file): \(error)")
                #expect(error.message == "The image file ends before its data does.")
            }
        }
    }

    /// A JPEG whose scan data stops early but still ends with an EOI marker (a phone's motion
    /// photo cut short): libjpeg only warns "premature end of data segment" and fills the rest
    /// grey. It is refused wherever the data stops, the last rows of a 12-megapixel photo too,
    /// which libvips' own check never reaches.
    @Test(arguments: [0.3, 0.9, 0.999])
    func aJPEGWhoseScanStopsEarlyIsTruncated(kept: Double) throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/lychee__train.jpg"))))
        let scan = try #require(Self.firstIndex(of: [0xFF, 0xDA], in: original))
        let end = try #require(Self.lastIndex(of: [0xFF, 0xD9], in: original))
        let cut = scan + Int(Double(end - scan) * kept)
        let directory = TemporaryDirectory()
        let path = directory.file("cut.jpg")
        try Data(original[..<cut] + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImagingError(.truncated, "The image file ends before its data does.")) {
            _ = try imaging.render(
                path, [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))], damage: .refuseDamage)
        }
    }

    /// libjpeg's warnings about bytes no pixel needs do not refuse a photo; lost pixels do.
    @Test func onlyJPEGWarningsThatLosePixelsRefuse() throws {
        let request = [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))]
        let junk = try imaging.render(Corpus.path("bad/pillow__junk_jpeg_header.jpg"), request, damage: .refuseDamage)
        #expect(junk[0].size == PixelSize(width: 256, height: 192))
        for file in ["bad/pillow__hopper_bad_exif.jpg", "bad/exifsamples__corrupted.jpg", "bad/pigallery2__corrupted_city.JPG"] {
            #expect(throws: ImagingError(.corrupt, "The image data is damaged and cannot be decoded."), "\(file)") {
                _ = try imaging.render(Corpus.path(file), request, damage: .refuseDamage)
            }
        }
        #expect(throws: ImagingError(.corrupt, "The photo is a kind of JPEG this server cannot decode (12-bit or lossless).")) {
            _ = try imaging.render(Corpus.path("bad/libjpeg-turbo__monkey12.jpg"), request, damage: .refuseDamage)
        }
    }

    /// A render of a photo already accepted goes on past damage libjpeg decodes around (at a
    /// shrunk size libjpeg decodes it, not libvips), and still refuses a file that ends early.
    @Test func rendersLetThroughDamageLibjpegDecodesAround() throws {
        let request = [RenderRequest(box: PixelSize(width: 64, height: 64), encoding: .webp(quality: 80))]
        for file in ["bad/exifsamples__corrupted.jpg", "bad/pillow__hopper_bad_exif.jpg"] {
            let rendered = try imaging.render(Corpus.path(file), request, damage: .refuseTruncation)
            #expect(rendered.count == 1 && !rendered[0].data.isEmpty, "\(file)")
        }
        // Damage libjpeg cannot decode past is refused, as libvips refused it.
        #expect(throws: ImagingError.self) {
            _ = try imaging.render(Corpus.path("bad/pigallery2__corrupted_city.JPG"), request, damage: .refuseTruncation)
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/lychee__train.jpg")))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: cut) }
        try whole.prefix(whole.count / 2).write(to: cut)
        #expect(throws: ImagingError.self) { _ = try imaging.render(cut.path, request, damage: .refuseTruncation) }
    }

    /// The decoder's own words reach the detail, for the log, never the message.
    @Test func decoderTextStaysOutOfTheMessage() throws {
        do {
            _ = try imaging.render(
                Corpus.path("bad/mp4parse__bug-1655846.avif"),
                [RenderRequest(box: PixelSize(width: 64, height: 64), encoding: .jpeg(quality: 80))])
            Issue.record("rendered")
        } catch {
            #expect(error.message == "The image file ends before its data does.")
            let detail = try #require(error.detail)
            #expect(!detail.isEmpty && !detail.contains("/"), "\(detail)")
        }
    }

    static func firstIndex(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        bytes.indices.dropLast().first { bytes[$0] == marker[0] && bytes[$0 + 1] == marker[1] }
    }

    static func lastIndex(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        bytes.indices.dropLast().last { bytes[$0] == marker[0] && bytes[$0 + 1] == marker[1] }
    }

    @Test(arguments: decodablePhotos)
    func wholeFilesAreNotCalledTruncated(photo: String) throws {
        try imaging.checkStructure(Corpus.path(photo))
    }

    @Test(arguments: ["bad/pillow__broken.png", "bad/libpng__badadler.png"])
    func damageInsideAPNGIsNotCalledTruncation(file: String) throws {
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
