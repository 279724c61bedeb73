import Foundation
import Imaging
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// The words in photos, read by the real Tesseract in the background and found by search; on
/// both engines. The page with text is made by libvips' own text renderer, as a photographed
/// receipt would read.
@Suite struct WordReaderTests {
    /// A JPEG of dark words on a light page, made with the `vips` command.
    static func page(_ lines: [String], in directory: TemporaryDirectory) throws -> String {
        let (text, inverted, page) = (directory.path + "/text.v", directory.path + "/inverted.v", directory.path + "/receipt.jpg")
        for arguments in [
            ["text", text, lines.joined(separator: "\n"), "--dpi", "300", "--width", "1600"], ["invert", text, inverted],
            ["embed", inverted, page, "120", "120", "1840", "900", "--extend", "white"],
        ] {
            let vips = Process()
            vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
            vips.arguments = arguments
            try vips.run()
            vips.waitUntilExit()
            try #require(vips.terminationStatus == 0, "vips \(arguments)")
        }
        return page
    }

    @Test(arguments: Engine.withLocalBlobs) func theWordsOfAPhotoAreReadInTheBackgroundAndFound(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let directory = TemporaryDirectory("cameraroll-words")
        let receipt = try await library.ingest.importFile(
            at: try Self.page(["CORNER BAKERY", "Espresso 3.20", "Croissant 2.50", "Thank you"], in: directory),
            originalFilename: "IMG_0042.jpg", owner: .first
        ).asset
        let landscape = try await fixture.importCorpus("photos/recurser__Landscape_1.jpg").asset
        let movie = try await fixture.importCorpus("videos/androidx-media__sample.mp4").asset
        #expect(try await library.ids(searching: "bakery").isEmpty, "not read yet")

        #expect(try await library.wordReader.readWords() == 2, "the two photos, not the movie")
        #expect(library.wordReader.work == nil)
        #expect(try await library.ids(searching: "bakery") == [receipt.id])
        #expect(try await library.ids(searching: "CROISSANT") == [receipt.id])
        #expect(try await library.ids(searching: "espresso 3.20") == [receipt.id])
        let stored = try await library.database.read { connection throws(StorageError) in
            try connection.query("SELECT id, picture_words, words_edition FROM assets ORDER BY id", []).map { row throws(StorageError) in
                (try row.text("id"), try row.optionalText("picture_words"), try row.optionalInteger("words_edition"))
            }
        }
        let words = Dictionary(uniqueKeysWithValues: stored.map { ($0.0, $0.1) })
        let editions = Dictionary(uniqueKeysWithValues: stored.map { ($0.0, $0.2) })
        #expect(words[landscape.id] == .some(nil) && editions[landscape.id] == .some(WordReader.edition), "read, and no words")
        #expect(editions[movie.id] == .some(nil), "a movie is not read")
        #expect(try await library.wordReader.readWords() == 0, "each photo is read once")
    }

    @Test func aPlainPhotoIsNotGivenToTesseractAndAPageIs() throws {
        let imaging = try Imaging()
        let directory = TemporaryDirectory("cameraroll-words")
        let page = try imaging.pixels(
            of: try Self.page(["Some words on a page", "and more of them"], in: directory), fittedTo: WordReader.glance)
        #expect(TextLikelihood.mayHoldText(rgb: page.rgb, width: page.size.width))
        for plain in [
            "photos/recurser__Landscape_1.jpg", "photos/libpng__basn6a08.png", "photos/exifsamples__DSCN0010.jpg",
            "photos/androidx-media__tokyo.jpg", "photos/lychee__train.jpg", "photos/exifsamples__Canon_40D.jpg",
        ] {
            let glance = try imaging.pixels(of: Corpus.path(plain), fittedTo: WordReader.glance)
            #expect(!TextLikelihood.mayHoldText(rgb: glance.rgb, width: glance.size.width), "\(plain)")
        }
        #expect(!TextLikelihood.mayHoldText(rgb: [], width: 0))
    }

    @Test func onlyWordsTesseractIsSureOfAreKept() {
        let header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
        let word = { (confidence: String, text: String) in "5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t\(confidence)\t\(text)\n" }
        let read = RecognizedText(
            tsv: header + "1\t1\t0\t0\t0\t0\t0\t0\t854\t48\t-1\t\n" + word("96.1", "Espresso") + word("91", "3.20") + word("30", "Latte")
                + word("95", "|") + word("95", "a") + word("95", "espresso") + word("x", "Milk") + word("88", "Café"))
        #expect(read.words == "Espresso 3.20 Café")
        #expect(RecognizedText(tsv: "").words.isEmpty)
        #expect(RecognizedText(tsv: header + String(repeating: word("99", "abcdefghij"), count: 1000)).words == "abcdefghij")
    }

    /// What awaits its words is read from its own index, however large the library.
    @Test(arguments: [Engine.sqlite, .postgreSQL]) func whatAwaitsItsWordsIsReadFromItsIndex(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let source = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset.id
        try await library.catalog.cloneRows(of: source, count: 20_000)
        _ = try await library.database.write { connection throws(StorageError) in
            try connection.run("UPDATE assets SET words_edition = 1 WHERE id <> ?", [source])
        }
        try await library.catalog.analyze()
        for sql in [
            "SELECT id, blob_hash, format FROM assets WHERE \(WordReader.awaitingWords) AND (words_claimed_at IS NULL OR words_claimed_at < ?) ORDER BY id LIMIT 8",
            "SELECT count(*) AS found FROM assets WHERE \(WordReader.awaitingWords)",
        ] {
            let lines = try await queryPlan(library, sql, sql.hasSuffix("8") ? [0.0] : [])
            #expect(wholeTableScans(lines, of: ["assets"]).isEmpty, "\(engine): \(lines)")
            #expect(lines.contains { $0.contains("assets_awaiting_words") }, "\(engine): \(lines)")
        }
    }
}
