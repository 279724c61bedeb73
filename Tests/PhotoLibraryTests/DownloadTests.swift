import Foundation
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// Downloads of a selection on SQLite and PostgreSQL: what is kept and for how long, what is
/// refused, and the archive's bytes as the writer hands them over, read back through its layout.
/// (Readers that are not ours check the archives the server sends, in CameraRollServerTests.)
@Suite struct DownloadTests {
    static let photo = "photos/exifsamples__Canon_40D.jpg"
    static let video = "videos/androidx-media__sample.mp4"
    static let live = ("photos/lychee__train.jpg", "videos/lychee__train.mov")

    /// Imports the corpus files given; their ids in order.
    static func imported(_ files: [String], into fixture: LibraryFixture) async throws -> [String] {
        var ids: [String] = []
        for file in files { ids.append(try await fixture.importCorpus(file).asset.id) }
        return ids
    }

    static func downloadRows(_ library: Library) async throws -> Int {
        try await library.database.read { connection throws(StorageError) in
            try connection.query("SELECT count(*) AS count FROM downloads").first?.integer("count") ?? 0
        }
    }

    /// Everything the writer hands over, in order.
    static func archive(_ download: Download, from library: Library) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        try await library.downloads.write(download) { chunk in
            bytes += chunk
            return true
        }
        return bytes
    }

    /// The selection's order, a Live Photo's movie right after its still; every file's bytes
    /// where the layout puts them (the still's 3.4 MB span several chunks) and its CRC-32 in its
    /// data descriptor; the same download found again by its token.
    @Test(arguments: Engine.withLocalBlobs) func anArchiveHoldsTheSelectionInOrder(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let files = [Self.video, Self.live.0, Self.live.1, Self.photo]
        let ids = try await Self.imported(files, into: fixture)
        let library = fixture.library
        let download = try await library.downloads.createDownload(of: [ids[3], ids[1], ids[0]], owner: .first)
        #expect(download.count == 3 && download.fileCount == 4)
        #expect(download.assets.map(\.id) == [ids[3], ids[1], ids[2], ids[0]])
        #expect(
            download.layout.entries.map(\.name)
                == [Self.photo, Self.live.0, Self.live.1, Self.video].map { ($0 as NSString).lastPathComponent })
        #expect(download.filename.wholeMatch(of: /CameraRoll \d{4}-\d{2}-\d{2}\.zip/) != nil)
        #expect(download.token.wholeMatch(of: /[0-9a-f]{32}/) != nil)
        let found = try await library.downloads.download(download.token, owner: .first)
        #expect(found.assets.map(\.id) == download.assets.map(\.id) && found.size == download.size && found.filename == download.filename)

        let bytes = try await Self.archive(found, from: library)
        #expect(bytes.count == download.size)
        let layout = download.layout
        for (index, file) in [Self.photo, Self.live.0, Self.live.1, Self.video].enumerated() {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
            let start = layout.offsets[index] + layout.localHeader(index).count
            #expect(bytes[layout.offsets[index]..<start].elementsEqual(layout.localHeader(index)))
            #expect(bytes[start..<start + original.count].elementsEqual(original), "\(file)")
            var crc = CRC32()
            original.withUnsafeBytes { crc.update($0) }
            let descriptor = layout.dataDescriptor(index, crc: crc.value)
            #expect(bytes[start + original.count..<start + original.count + descriptor.count].elementsEqual(descriptor), "\(file)")
        }
        #expect(Array(bytes[layout.centralDirectoryOffset...]).starts(with: [0x50, 0x4B, 0x01, 0x02]))
    }

    @Test(arguments: Engine.withLocalBlobs) func whatIsNotInTheLibraryIsRefusedAndNothingKept(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let ids = try await Self.imported([Self.photo, Self.live.0, Self.live.1, Self.video], into: fixture)
        _ = try await library.catalog.trash(ids[3], owner: .first)
        func refusal(_ selection: [String]) async -> LibraryError.Code? {
            do {
                _ = try await library.downloads.createDownload(of: selection, owner: .first)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(await refusal([]) == .invalidRequest)
        #expect(await refusal([ids[0], ids[0]]) == .invalidRequest, "an item once")
        #expect(await refusal((0...Library.maxBatch).map { String($0) }) == .invalidRequest)
        #expect(await refusal([ids[0], "0123456789abcdef0123456789abcdef"]) == .notFound)
        #expect(await refusal([ids[0], ids[3]]) == .notFound, "in the trash")
        #expect(await refusal([ids[2]]) == .notFound, "a Live Photo's movie is part of its still")
        #expect(try await Self.downloadRows(library) == 0)
        #expect(try await library.downloads.createDownload(of: [ids[1]], owner: .first).fileCount == 2)
        #expect(try await Self.downloadRows(library) == 1)
    }

    /// A download lasts an hour; then it is not found, and collection removes its row.
    @Test(arguments: Engine.withLocalBlobs) func aDownloadExpiresAfterAnHour(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let ids = try await Self.imported([Self.photo], into: fixture)
        let start = Date()
        let token = try await library.downloads.createDownload(of: ids, owner: .first, now: start).token
        #expect(try await library.downloads.download(token, owner: .first, now: start.addingTimeInterval(3599)).fileCount == 1)
        await #expect(throws: LibraryError.self) {
            try await library.downloads.download(token, owner: .first, now: start.addingTimeInterval(3600))
        }
        #expect(try await library.collectGarbage(now: start.addingTimeInterval(3599)).expiredDownloads == 0)
        #expect(try await library.collectGarbage(now: start.addingTimeInterval(3600)).expiredDownloads == 1)
        #expect(try await Self.downloadRows(library) == 0)
        for token in ["", token.uppercased() + "0", String(token.dropLast()) + "g", "../" + token] {
            await #expect(throws: LibraryError.self, "\(token)") { try await library.downloads.download(token, owner: .first, now: start) }
        }
    }

    /// An item trashed after the download was asked for takes it away (its archive would not be
    /// the size announced) until it is restored.
    @Test func anItemTrashedSinceTakesTheDownloadAway() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let ids = try await Self.imported([Self.photo, Self.video], into: fixture)
        let token = try await library.downloads.createDownload(of: ids, owner: .first).token
        _ = try await library.catalog.trash(ids[1], owner: .first)
        await #expect(throws: LibraryError.self) { try await library.downloads.download(token, owner: .first) }
        _ = try await library.catalog.restore(ids[1], owner: .first)
        #expect(try await library.downloads.download(token, owner: .first).fileCount == 2)
    }

    @Test func theWriterStopsWhenTheSinkTakesNoMore() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let ids = try await Self.imported([Self.live.0, Self.photo], into: fixture)
        let download = try await library.downloads.createDownload(of: ids, owner: .first)
        var calls = 0
        try await library.downloads.write(download) { _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
    }
}
