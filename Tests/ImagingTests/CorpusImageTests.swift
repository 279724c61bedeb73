import Foundation
import Imaging
import TestSupport
import Testing
import Vocabulary

let decodablePhotos = Corpus.decodablePhotos

@Suite struct CorpusImageTests {
    let imaging: Imaging

    init() throws { imaging = try Imaging() }

    @Test func theCorpusIsThere() {
        #expect(decodablePhotos.count > 80)
    }

    @Test(arguments: decodablePhotos)
    func everyDecodablePhotoProbesAndRendersExactly(photo: String) throws {
        let path = Corpus.path(photo)
        let info = try imaging.probe(path)
        #expect(info.width > 0 && info.height > 0)
        let box = PixelSize(width: 256, height: 256)
        let outputs = try imaging.render(
            path,
            [
                RenderRequest(box: box, encoding: .webp(quality: 80)),
                RenderRequest(box: PixelSize(width: 600, height: 400), encoding: .jpeg(quality: 85)),
            ])
        #expect(outputs.count == 2)
        #expect(outputs[0].size == FitGeometry.outputSize(of: info.size, in: box, fit: .contain))
        #expect(outputs[1].size == FitGeometry.outputSize(of: info.size, in: PixelSize(width: 600, height: 400), fit: .contain))
        #expect(outputs[0].data.starts(with: Array("RIFF".utf8)))
        #expect(outputs[1].data.starts(with: [0xFF, 0xD8, 0xFF]))
        // Metadata is stripped: no EXIF block and no XMP packet survive into derivatives.
        #expect(!containsBytes(outputs[1].data, Array("Exif\u{0}\u{0}".utf8)))
        #expect(!containsBytes(outputs[0].data, Array("EXIF".utf8)))
    }

    /// An iPhone 16 Pro Max HEIC with HDR gain-map auxiliary images, which libheif 1.15 refused.
    @Test func currentIPhoneHEICDecodesUpright() throws {
        let path = Corpus.path("photos/pigallery2__IMG_0307.HEIC")
        let info = try imaging.probe(path)
        #expect(info.format == .heif)
        #expect(info.size == PixelSize(width: 4284, height: 5712))
        let outputs = try imaging.render(
            path, [RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))], damage: .refuseDamage)
        #expect(outputs[0].size == PixelSize(width: 192, height: 256))
    }

    @Test func probeReadsCameraMetadata() throws {
        let info = try imaging.probe(Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        #expect(info.format == .jpeg)
        #expect(info.cameraMake == "Canon")
        #expect(info.cameraModel == "Canon EOS 40D")
        #expect(info.captureDate == "2008-05-30T15:56:01")
        #expect(info.hasGPS == false)
    }

    /// JPEGs are decoded by libjpeg itself, for an import (to judge the data) and for renders at
    /// a reduced size (quicker): the pixels must be the ones libvips' own JPEG loader gives
    /// (colour, CMYK, grey, every orientation, every shrink).
    @Test(arguments: decodablePhotos.filter { (try? Imaging.sniff(path: Corpus.path($0))) == .jpeg })
    func libjpegsDecodeOfAJPEGMatchesLibvips(photo: String) async throws {
        let directory = TemporaryDirectory()
        var libvips = imaging
        libvips.shrunkJPEGDecoder = .libvips
        let decoders = [(imaging, DamagePolicy.refuseDamage), (imaging, .refuseTruncation), (libvips, .refuseTruncation)]
        let pixels = try await offThePool {
            var pixels: [[UInt8]] = []
            for (index, (imaging, damage)) in decoders.enumerated() {
                let requests = [256, 1100].map { RenderRequest(box: PixelSize(width: $0, height: $0), encoding: .jpeg(quality: 100)) }
                let outputs = try imaging.render(Corpus.path(photo), requests, damage: damage)
                for (size, output) in outputs.enumerated() {
                    let file = directory.file("\(index)-\(size).jpg")
                    try Data(output.data).write(to: URL(fileURLWithPath: file))
                    pixels.append(try imaging.pixels(of: file, fittedTo: output.size).rgb)
                }
            }
            return pixels
        }
        // Each of libjpeg's renders against libvips': the 256 and the 1100 of each decoder.
        for index in 0..<4 {
            #expect(meanDifference(pixels[index], pixels[4 + index % 2]) < 1, "\(photo), render \(index)")
        }
    }

    /// The still of a Live Photo names the identifier its movie carries (`ProbeTests`), in a
    /// JPEG's MakerNote (little-endian TIFF) and a HEIC's alike; other photos name none.
    @Test func aLivePhotosStillNamesItsContentIdentifier() throws {
        #expect(try imaging.probe(Corpus.path("photos/lychee__train.jpg")).contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(
            try imaging.probe(Corpus.path("photos/pigallery2__IMG_7943.HEIC")).contentIdentifier == "9B539AB8-A668-4FA6-9207-EB653A5E7E3C")
        #expect(try imaging.probe(Corpus.path("photos/exifsamples__Canon_40D.jpg")).contentIdentifier == nil, "a Canon MakerNote")
    }

    @Test func probeSeesGPSAndICC() throws {
        let withGPS = try imaging.probe(Corpus.path("photos/exifsamples__DSCN0010.jpg"))
        #expect(withGPS.hasGPS)
        let withICC = try imaging.probe(Corpus.path("photos/pillow__xmp_test.jpg"))
        #expect(withICC.hasICCProfile)
    }

    @Test func hostileMetadataIsKeptAsPlainText() throws {
        let info = try imaging.probe(Corpus.path("bad/payloads__payload_in_all_known_metadata.jpg"))
        let make = try #require(info.cameraMake)
        #expect(make.contains("<script>"))
        #expect(make.count <= 120)
        #expect(!make.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func cmykAndWideGamutComeOutAsSRGB() throws {
        for photo in ["photos/sharp__Channel_digital_image_CMYK_color.jpg", "photos/sharp__p3.png", "photos/sharp__16-bit-grey-alpha.png"] {
            let pixels = try imaging.pixels(of: Corpus.path(photo), fittedTo: PixelSize(width: 64, height: 64))
            #expect(pixels.rgb.count == pixels.size.pixelCount * 3, "\(photo)")
        }
    }

    @Test func cropIsInUprightPixels() throws {
        // Landscape_6 is stored turned; its upright right half must match Landscape_1's.
        let reference = try imaging.render(
            Corpus.path("photos/recurser__Landscape_1.jpg"),
            [
                RenderRequest(
                    box: PixelSize(width: 90, height: 120), crop: PixelRect(x: 900, y: 0, width: 900, height: 1200),
                    encoding: .jpeg(quality: 95))
            ])
        let turned = try imaging.render(
            Corpus.path("photos/recurser__Landscape_6.jpg"),
            [
                RenderRequest(
                    box: PixelSize(width: 90, height: 120), crop: PixelRect(x: 900, y: 0, width: 900, height: 1200),
                    encoding: .jpeg(quality: 95))
            ])
        #expect(reference[0].size == PixelSize(width: 90, height: 120))
        #expect(turned[0].size == reference[0].size)
        let directory = TemporaryDirectory()
        try Data(reference[0].data).write(to: URL(fileURLWithPath: directory.file("a.jpg")))
        try Data(turned[0].data).write(to: URL(fileURLWithPath: directory.file("b.jpg")))
        let a = try imaging.pixels(of: directory.file("a.jpg"), fittedTo: PixelSize(width: 90, height: 120))
        let b = try imaging.pixels(of: directory.file("b.jpg"), fittedTo: PixelSize(width: 90, height: 120))
        #expect(meanDifference(a.rgb, b.rgb) < 12)
    }

    @Test func cropOutsideTheImageIsRefused() {
        #expect(throws: ImagingError(.invalidRequest, "The crop 100x100+1750+0 is not inside the 1800x1200 image.")) {
            _ = try imaging.render(
                Corpus.path("photos/recurser__Landscape_1.jpg"),
                [
                    RenderRequest(
                        box: PixelSize(width: 50, height: 50), crop: PixelRect(x: 1750, y: 0, width: 100, height: 100),
                        encoding: .jpeg(quality: 80))
                ])
        }
    }
}

func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start..<start + needle.count].elementsEqual(needle)
    }
}

func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && !a.isEmpty)
    let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(a.count)
}
