import Foundation
import TestSupport
import Testing

@testable import Imaging

/// A pick that removes location or captions gets the JPEG with exactly those gone, as exiftool
/// (Debian's, independent of our reader) sees it, and every pixel as it was.
@Suite struct JPEGRedactionTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    /// exiftool's tags of a file, by group and name (`GPS:GPSLatitude`).
    func tags(_ bytes: [UInt8]) async throws -> [String: String] {
        let directory = TemporaryDirectory()
        let file = directory.file("picked.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let run = try await Executable.run(program: "/usr/bin/exiftool", ["-j", "-a", "-G1", "-s", file])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
        return try #require(objects.first).mapValues { "\($0)" }
    }

    func bytes(_ file: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))) }

    func samePixels(_ a: [UInt8], _ b: [UInt8]) throws -> Bool {
        let directory = TemporaryDirectory()
        let (first, second) = (directory.file("a.jpg"), directory.file("b.jpg"))
        try Data(a).write(to: URL(fileURLWithPath: first))
        try Data(b).write(to: URL(fileURLWithPath: second))
        let size = try imaging.probe(first).size
        return try imaging.pixels(of: first, fittedTo: size).rgb == imaging.pixels(of: second, fittedTo: size).rgb
    }

    @Test(arguments: ["photos/pigallery2__exiftool.jpg", "photos/lychee__train.jpg", "photos/exifsamples__DSCN0010.jpg"])
    func locationGoesAndTheRestStays(file: String) async throws {
        let original = try bytes(file)
        let before = try await tags(original)
        #expect(before.keys.contains { $0.hasPrefix("GPS:GPSLatitude") }, "the corpus photo has a location")
        let redacted = try #require(JPEGRedaction.redacted(original, removing: .location))
        let after = try await tags(redacted)
        #expect(!after.keys.contains { $0.hasPrefix("GPS:") || $0.hasPrefix("XMP-exif:GPS") || $0.hasPrefix("Composite:GPS") })
        #expect(!after.keys.contains { $0.hasPrefix("XMP") || $0.hasPrefix("IPTC") }, "XMP and IPTC go whole")
        for kept in ["IFD0:Make", "IFD0:Model", "ExifIFD:DateTimeOriginal"] where before[kept] != nil {
            #expect(after[kept] == before[kept], "\(kept)")
        }
        #expect(redacted.count <= original.count)
        #expect(try samePixels(original, redacted), "not one pixel changes")
        let directory = TemporaryDirectory()
        try Data(redacted).write(to: URL(fileURLWithPath: directory.file("redacted.jpg")))
        #expect(try !imaging.probe(directory.file("redacted.jpg")).hasGPS, "and the library's own probe agrees")
    }

    @Test func captionsGoWhereTheyAreWritten() async throws {
        let original = try bytes("bad/payloads__payload_in_all_known_metadata.jpg")
        let captions = ["IFD0:ImageDescription", "IFD0:XPTitle", "IFD0:XPComment", "File:Comment"]
        let before = try await tags(original)
        for caption in captions { #expect(before[caption]?.contains("<script>") == true, "\(caption)") }

        let redacted = try #require(JPEGRedaction.redacted(original, removing: .captions))
        let after = try await tags(redacted)
        for caption in captions { #expect(after[caption]?.contains("<script>") != true, "\(caption) is gone") }
        #expect(after["IFD0:Make"] == before["IFD0:Make"], "a camera is no caption")
        #expect(try samePixels(original, redacted))

        let locationOnly = try await tags(try #require(JPEGRedaction.redacted(original, removing: .location)))
        #expect(locationOnly["IFD0:ImageDescription"] == before["IFD0:ImageDescription"], "location alone keeps the captions of EXIF")
    }

    @Test func whatIsNoJPEGIsNotRedacted() throws {
        #expect(JPEGRedaction.redacted(try bytes("photos/pigallery2__IMG_7943.HEIC"), removing: .location) == nil)
        #expect(JPEGRedaction.redacted([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF], removing: .location) == nil, "a segment past the end")
        let original = try bytes("photos/lychee__train.jpg")
        #expect(JPEGRedaction.redacted(original, removing: []) == original, "nothing to remove is the file itself")
    }
}
