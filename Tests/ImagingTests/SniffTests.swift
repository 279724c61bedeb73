import Foundation
import Imaging
import TestSupport
import Testing

@Suite struct SniffTests {
    @Test(
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
            (Array("GIF89a".utf8), .gif),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
            (ftyp("heic", ["mif1", "heic"]), .heif),
            (ftyp("mif1", ["mif1", "heic"]), .heif),
            (ftyp("avif", ["mif1", "avif"]), .avif),
            (ftyp("mif1", ["mif1", "avif"]), .avif),
        ] as [([UInt8], ImageFormat)])
    func recognisesAllowedFormats(header: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(header) == format)
    }

    @Test(arguments: [
        [] as [UInt8],
        Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8),
        Array("#EXTM3U\n".utf8),
        Array("%PDF-1.7".utf8),
        ftyp("isom", ["isom", "mp41"]),
        ftyp("qt  ", ["qt  "]),
        [0x1A, 0x45, 0xDF, 0xA3],
    ])
    func refusesEverythingElse(header: [UInt8]) {
        #expect(ImageFormat.sniff(header) == nil)
    }

    @Test func corpusFilesWithWrongExtensionsAreSniffedByContent() throws {
        #expect(try Imaging.sniff(path: Corpus.path("bad/photoprism__this-is-a-jpeg.png")) == .jpeg)
        #expect(try Imaging.sniff(path: Corpus.path("bad/photoprism__wrong.heic")) == .jpeg)
        #expect(try Imaging.sniff(path: Corpus.path("bad/libvips__looks-like-svg.webp")) == .webp)
        #expect(try Imaging.sniff(path: Corpus.path("bad/payloads__CVE-2021-22204_exiftool_echo.jpg")) == nil)
        #expect(try Imaging.sniff(path: Corpus.path("bad/payloads__SVG_XSS1.svg")) == nil)
    }
}

private func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
    let size = 16 + 4 * compatible.count
    var bytes: [UInt8] = [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
    for brand in compatible { bytes += Array(brand.utf8) }
    return bytes
}
