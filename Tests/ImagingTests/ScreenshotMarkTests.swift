import Foundation
import TestSupport
import Testing

@testable import Imaging

/// A screenshot as iOS and macOS mark it: "Screenshot" as the UserComment, in XMP for a PNG and
/// in EXIF for a JPEG; written here by exiftool, read back through the probe.
@Suite struct ScreenshotMarkTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    func marked(_ name: String, _ tag: String) async throws -> String {
        let directory = TemporaryDirectory()
        let path = directory.file(name)
        #expect(try await Executable.run(program: "/usr/bin/vips", ["black", path, "32", "24", "--bands", "3"]).status == 0)
        #expect(
            try await Executable.run(program: "/usr/bin/exiftool", ["-q", "-overwrite_original", "-\(tag)=Screenshot", path]).status == 0)
        // The folder goes with `directory`; the file is read before then.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return copy
    }

    @Test func aMarkedPNGOrJPEGIsAScreenshot() async throws {
        for (name, tag) in [("shot.png", "XMP-exif:UserComment"), ("shot.jpg", "EXIF:UserComment")] {
            let path = try await marked(name, tag)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(try imaging.probe(path).isScreenshot, "\(tag)")
        }
    }

    @Test(arguments: ["photos/lychee__train.jpg", "photos/libpng__basn6a08.png", "bad/payloads__payload_in_all_known_metadata.jpg"])
    func aPhotoIsNoScreenshot(file: String) throws {
        #expect(try !imaging.probe(Corpus.path(file)).isScreenshot)
    }

    @Test func theMarkIsTheCommentItself() {
        #expect(ScreenshotMark.says(xmp: #"<rdf:Description exif:UserComment="Screenshot"/>"#))
        #expect(ScreenshotMark.says(xmp: "<exif:UserComment>Screenshot</exif:UserComment>"))
        #expect(!ScreenshotMark.says(xmp: "<exif:UserComment>Not a Screenshot</exif:UserComment>"))
        #expect(!ScreenshotMark.says(xmp: "<dc:title>Screenshot</dc:title><exif:UserComment>holiday</exif:UserComment>"))
    }
}
