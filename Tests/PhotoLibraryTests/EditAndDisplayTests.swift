import Foundation
import Imaging
import PhotoLibrary
import TestSupport
import Testing
import Vocabulary

@Suite struct EditAndDisplayTests {
    /// Display sizes are exact for every orientation, box and device pixel ratio.
    @Test(arguments: ["Landscape", "Portrait"], [1, 3, 6, 8])
    func displaySizesAreExact(shape: String, orientation: Int) async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/recurser__\(shape)_\(orientation).jpg").asset
        let imaging = try Imaging()
        for (width, height, dpr) in [(375, 667, 2), (1024, 768, 1), (320, 320, 3), (90, 500, 1)] {
            let box = PixelSize(width: width * dpr, height: height * dpr)
            let display = try await fixture.library.derivatives.display(of: asset.id, box: box, owner: .first)
            let expected = FitGeometry.outputSize(of: PixelSize(width: asset.width, height: asset.height), in: box, fit: .contain)
            let measured = try imaging.probe(display.path)
            #expect(display.size == expected)
            #expect(measured.size == expected, "\(shape) \(orientation) in \(box)")
            #expect(
                measured.width == box.width || measured.height == box.height
                    || expected == PixelSize(width: asset.width, height: asset.height))
            let cover = try await fixture.library.derivatives.display(of: asset.id, box: box, fit: .cover, owner: .first)
            #expect(
                try imaging.probe(cover.path).size
                    == FitGeometry.outputSize(of: PixelSize(width: asset.width, height: asset.height), in: box, fit: .cover))
        }
    }

    @Test func aStoredCropIsRenderedAndTheOriginalNeverChanges() async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/recurser__Portrait_6.jpg").asset
        let original = try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: asset)))
        let crop = PixelRect(x: 100, y: 300, width: 800, height: 800)
        let edited = try await fixture.library.catalog.setEdit(.crop(crop), for: asset.id, owner: .first)
        #expect(edited.edit == .crop(crop))
        #expect(try await fixture.library.catalog.asset(asset.id, owner: .first).edit == .crop(crop))

        let display = try await fixture.library.derivatives.display(
            of: asset.id, box: PixelSize(width: 400, height: 400), edited: true, owner: .first)
        #expect(display.size == PixelSize(width: 400, height: 400))
        let imaging = try Imaging()
        let rendered = try imaging.pixels(of: display.path, fittedTo: PixelSize(width: 40, height: 40))
        let expected = try imaging.render(
            Corpus.path("photos/recurser__Portrait_1.jpg"),
            [
                RenderRequest(box: PixelSize(width: 400, height: 400), crop: crop, encoding: .jpeg(quality: 95))
            ])
        let directory = TemporaryDirectory()
        try Data(expected[0].data).write(to: URL(fileURLWithPath: directory.file("expected.jpg")))
        let reference = try imaging.pixels(of: directory.file("expected.jpg"), fittedTo: PixelSize(width: 40, height: 40))
        let difference = zip(rendered.rgb, reference.rgb).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / rendered.rgb.count
        #expect(difference < 10)
        #expect(try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: asset))) == original)

        _ = try await fixture.library.catalog.setEdit(nil, for: asset.id, owner: .first)
        #expect(try await fixture.library.catalog.asset(asset.id, owner: .first).edit == nil)
    }

    @Test(arguments: [
        (PixelRect(x: 0, y: 0, width: 0, height: 10), "cropRect"),
        (PixelRect(x: -1, y: 0, width: 10, height: 10), "cropRect"),
        (PixelRect(x: 1000, y: 1000, width: 900, height: 900), "cropRect"),
    ])
    func impossibleCropsAreRefusedByName(rect: PixelRect, field: String) async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/recurser__Landscape_1.jpg").asset
        do {
            _ = try await fixture.library.catalog.setEdit(.crop(rect), for: asset.id, owner: .first)
            Issue.record("accepted \(rect)")
        } catch {
            #expect(error.code == .invalidEdit)
            #expect(error.message.hasPrefix(field))
        }
        #expect(try await fixture.library.catalog.asset(asset.id, owner: .first).edit == nil)
    }

    @Test func trimsAreValidatedAndRendered() async throws {
        let fixture = try LibraryFixture()
        let movie = try await fixture.importCorpus("videos/pigallery2__video_rotate.mp4").asset
        let photo = try await fixture.importCorpus("photos/recurser__Landscape_1.jpg").asset
        for (start, end) in [(-1.0, 2.0), (3.0, 2.0), (1.0, 999.0), (Double.nan, 1.0)] {
            await #expect(throws: LibraryError.self) {
                _ = try await fixture.library.catalog.setEdit(.trim(start: start, end: end), for: movie.id, owner: .first)
            }
        }
        await #expect(throws: LibraryError.self) {
            _ = try await fixture.library.catalog.setEdit(.trim(start: 0, end: 1), for: photo.id, owner: .first)
        }
        await #expect(throws: LibraryError.self) {
            _ = try await fixture.library.catalog.setEdit(.crop(PixelRect(x: 0, y: 0, width: 10, height: 10)), for: movie.id, owner: .first)
        }

        _ = try await fixture.library.catalog.setEdit(.trim(start: 2, end: 5), for: movie.id, owner: .first)
        let trimmed = try await fixture.library.mediaJobs.trimmedVideo(of: movie.id, owner: .first)
        let info = try await VideoProbe.duration(trimmed.path)
        #expect(abs(info - 3.0) < 0.2)
    }

    @Test func unplayableMoviesGetAPlayableRendition() async throws {
        let fixture = try LibraryFixture()
        let movie = try await fixture.importCorpus("videos/photoprism__quicktime-hvc1.mov").asset
        #expect(movie.isBrowserPlayable == false)
        #expect(try await fixture.library.mediaJobs.renditionStatus(of: movie.id, owner: .first) == .notStarted)
        let playable = try await fixture.library.mediaJobs.playableVideo(of: movie.id, owner: .first)
        #expect(playable.mimeType == "video/mp4")
        #expect(try await fixture.library.mediaJobs.renditionStatus(of: movie.id, owner: .first) == .ready)
        let original = try await fixture.importCorpus("videos/androidx-media__sample.mp4").asset
        let originalFile = try await fixture.library.originalFile(of: original)
        #expect(try await fixture.library.mediaJobs.playableVideo(of: original.id, owner: .first).path == originalFile)
    }

    /// Rotate, flip and crop, as the library's editor stores them: the crop is in the turned
    /// photo's pixels, renders and thumbnails show the edit they name, and the original never
    /// changes.
    @Test func aTurnedMirroredCropIsRenderedInTheTurnedPhotosPixels() async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/recurser__Landscape_1.jpg").asset
        #expect(asset.size == PixelSize(width: 1800, height: 1200))
        let original = try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: asset)))
        let turned = Reorientation(quarterTurns: 1, mirrored: true)
        // Inside the 1200x1800 turned photo, not inside the 1800x1200 upright one.
        let crop = PixelRect(x: 100, y: 1000, width: 1000, height: 700)
        let edit = ImageEdit(reorientation: turned, crop: crop)
        await #expect(throws: LibraryError.self, "checked against the upright size without the turn") {
            try await fixture.library.catalog.setEdit(.crop(crop), for: asset.id, owner: .first)
        }
        #expect(try await fixture.library.catalog.setEdit(.image(edit), for: asset.id, owner: .first).edit == .image(edit))

        let imaging = try Imaging()
        let display = try await fixture.library.derivatives.display(
            of: asset.id, box: PixelSize(width: 500, height: 500), edited: true, owner: .first)
        #expect(display.size == PixelSize(width: 500, height: 350))
        let expected = try imaging.render(
            Corpus.path("photos/recurser__Landscape_1.jpg"),
            [RenderRequest(box: PixelSize(width: 500, height: 500), crop: crop, encoding: .jpeg(quality: 95))],
            reoriented: turned)
        let directory = TemporaryDirectory()
        try Data(expected[0].data).write(to: URL(fileURLWithPath: directory.file("expected.jpg")))
        let reference = try imaging.pixels(of: directory.file("expected.jpg"), fittedTo: PixelSize(width: 50, height: 50))
        let rendered = try imaging.pixels(of: display.path, fittedTo: PixelSize(width: 50, height: 50))
        #expect(zip(rendered.rgb, reference.rgb).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / rendered.rgb.count < 10)

        let plain = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 256, owner: .first)
        let thumbnail = try await fixture.library.derivatives.thumbnail(
            of: asset.id, size: 256, edit: ImageEdit(reorientation: turned), owner: .first)
        #expect(plain.size == PixelSize(width: 256, height: 171) && thumbnail.size == PixelSize(width: 171, height: 256))
        #expect(try imaging.probe(thumbnail.path).size == PixelSize(width: 171, height: 256), "the file is what the size says")
        #expect(thumbnail.etag != plain.etag)
        // Served once more, it is answered from memory, by the edit its URL names.
        _ = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 256, edit: ImageEdit(reorientation: turned), owner: .first)
        #expect(
            fixture.library.derivatives.readyThumbnail(of: asset.id, size: 256, edit: ImageEdit(reorientation: turned), owner: .first)?.etag
                == thumbnail.etag)
        #expect(
            fixture.library.derivatives.readyThumbnail(
                of: asset.id, size: 256, edit: ImageEdit(reorientation: .none, crop: nil), owner: .first)?.etag
                != thumbnail.etag)
        #expect(try Data(contentsOf: URL(fileURLWithPath: try await fixture.library.originalFile(of: asset))) == original)
        _ = try await fixture.library.catalog.setEdit(nil, for: asset.id, owner: .first)
        #expect(
            try await fixture.library.derivatives.display(
                of: asset.id, box: PixelSize(width: 500, height: 500), edited: true, owner: .first
            ).size
                == PixelSize(width: 500, height: 333), "reverted")
    }

    @Test func editsAreStoredAsJSONParameters() async throws {
        let crop = try JSONEncoder().encode(Edit.crop(PixelRect(x: 1, y: 2, width: 3, height: 4)))
        #expect(String(decoding: crop, as: UTF8.self).contains("\"cropRect\""))
        let trim = try JSONDecoder().decode(Edit.self, from: Data(#"{"trim":{"start":1.5,"end":3}}"#.utf8))
        #expect(trim == .trim(start: 1.5, end: 3))
        let turned = Edit.image(ImageEdit(reorientation: Reorientation(quarterTurns: 3, mirrored: true)))
        let written = String(decoding: try JSONEncoder().encode(turned), as: UTF8.self)
        #expect(written.contains("\"rotation\":270") && written.contains("\"flipped\":true") && !written.contains("cropRect"))
        #expect(try JSONDecoder().decode(Edit.self, from: Data(written.utf8)) == turned)
        for stored in [#"{"rotation":45}"#, #"{"rotation":360}"#, "{}", #"{"flipped":false}"#] {
            #expect(throws: DecodingError.self, "\(stored)") { try JSONDecoder().decode(Edit.self, from: Data(stored.utf8)) }
        }
    }
}

/// ffprobe's word on a finished file, independent of the code under test.
enum VideoProbe {
    static func duration(_ path: String) async throws -> Double {
        let probe = try await Executable.run(
            program: "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// A rendering's validator comes from its recipe, so two servers (two data folders here, two
/// instances of a cluster in use) give a client the same ETag for the same photo and size, and
/// a revalidation anywhere is a 304; another size, edit or photo is another ETag.
@Suite struct RecipeValidatorTests {
    @Test func twoLibrariesGiveTheSameValidatorForTheSameRecipe() async throws {
        let first = try LibraryFixture()
        let second = try LibraryFixture()
        let photo = "photos/exifsamples__jolla.jpg"
        let a = try await first.importCorpus(photo).asset
        let b = try await second.importCorpus(photo).asset
        let thumbnails = (
            try await first.library.derivatives.thumbnail(of: a.id, size: 256, owner: .first),
            try await second.library.derivatives.thumbnail(of: b.id, size: 256, owner: .first)
        )
        #expect(thumbnails.0.etag == thumbnails.1.etag)
        let box = PixelSize(width: 300, height: 200)
        let displays = (
            try await first.library.derivatives.display(of: a.id, box: box, owner: .first),
            try await second.library.derivatives.display(of: b.id, box: box, owner: .first)
        )
        #expect(displays.0.etag == displays.1.etag && displays.0.etag != thumbnails.0.etag)
        #expect(try await first.library.derivatives.thumbnail(of: a.id, size: 512, owner: .first).etag != thumbnails.0.etag, "another size")
        let cropped = try await first.library.derivatives.display(
            of: a, edit: ImageEdit(crop: PixelRect(x: 0, y: 0, width: 100, height: 100)), box: box)
        #expect(cropped.etag != displays.0.etag, "another edit")
        let turned = try await first.library.derivatives.display(
            of: a, edit: ImageEdit(reorientation: Reorientation(quarterTurns: 1, mirrored: false)), box: box)
        #expect(turned.etag != displays.0.etag && turned.etag != cropped.etag, "a turn is another edit")
        let other = try await first.importCorpus("photos/lychee__train.jpg").asset
        #expect(
            try await first.library.derivatives.thumbnail(of: other.id, size: 256, owner: .first).etag != thumbnails.0.etag, "another photo"
        )
        // Made again by a process that starts after the cache was lost: the same validator, so
        // clients keep their copy.
        try FileManager.default.removeItem(atPath: first.folder.derived)
        let restarted = try Library(folder: first.folder)
        let remade = try await restarted.derivatives.thumbnail(of: a.id, size: 256, owner: .first)
        #expect(FileManager.default.fileExists(atPath: remade.path) && remade.etag == thumbnails.0.etag)
    }
}

/// A thumbnail on the disk is found, not made again, whichever way its request goes: with the
/// asset's facts remembered (a lookup of its own), or in a process that knows nothing of it yet
/// (the lookup in the render's hop). A render would replace the file, a new inode.
@Suite struct ThumbnailLookupTests {
    @Test(arguments: [false, true]) func aThumbnailOnTheDiskIsNotMadeAgain(restarted: Bool) async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus("photos/exifsamples__jolla.jpg").asset
        let made = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 256, owner: .first)
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: made.path)[.systemFileNumber] as? UInt64)
        let library = restarted ? try Library(folder: fixture.folder) : fixture.library
        let found = try await library.derivatives.thumbnail(of: asset.id, size: 256, owner: .first)
        #expect(found.path == made.path && found.etag == made.etag)
        #expect(try FileManager.default.attributesOfItem(atPath: found.path)[.systemFileNumber] as? UInt64 == inode)
    }
}

/// The derivative cache keeps under its limit, the least lately used files going first, and keeps
/// every thumbnail; its size is counted in the background once the library opens, so that no
/// render waits for a scan.
@Suite struct DerivativeCacheLimitTests {
    /// The bytes of the files below `folder` that are thumbnails, or that are not.
    func bytes(under folder: String, thumbnails: Bool = false) -> Int {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var total = 0
        while let name = enumerator?.nextObject() as? String {
            if enumerator?.fileAttributes?[.type] as? FileAttributeType == .typeRegular, name.contains("thumb-") == thumbnails {
                total += (enumerator?.fileAttributes?[.size] as? Int) ?? 0
            }
        }
        return total
    }

    @Test func theCacheStaysUnderItsLimit() async throws {
        var options = Library.Options()
        options.derivedCacheBytes = 400_000
        let fixture = try LibraryFixture(options)
        let files = [
            "photos/lychee__aarhus.jpg", "photos/lychee__train.jpg", "photos/exifsamples__Canon_40D.jpg",
            "photos/recurser__Landscape_1.jpg", "photos/androidx-media__london.jpg", "photos/pigallery2__exiftool.jpg",
        ]
        var ids: [String] = []
        for file in files { ids.append(try await fixture.importCorpus(file).asset.id) }
        let thumbnails = bytes(under: fixture.folder.derived, thumbnails: true)
        var made = 0
        for id in ids {
            made += try Data(
                contentsOf: URL(
                    fileURLWithPath: try await fixture.library.derivatives.display(
                        of: id, box: PixelSize(width: 1200, height: 1200), owner: .first
                    ).path)
            ).count
        }
        #expect(made > 400_000, "more than the limit was made")
        let deadline = Date().addingTimeInterval(20)
        while bytes(under: fixture.folder.derived) > 400_000 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(bytes(under: fixture.folder.derived) <= 400_000)
        #expect(bytes(under: fixture.folder.derived, thumbnails: true) == thumbnails, "every thumbnail stays")
        // What was trimmed is made again on demand.
        for id in ids { _ = try await fixture.library.derivatives.thumbnail(of: id, size: 256, owner: .first) }
    }
}
