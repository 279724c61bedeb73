import Digests
import Foundation
import PostgreSQL
import S3
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// Resumable uploads on each engine: pieces become the asset byte for byte, a piece that does
/// not fit changes nothing, an upload goes on after a restart and on another server, and what
/// ends (finished, cancelled, expired) leaves no bytes behind.
@Suite struct ResumableUploadTests {
    static let photo = "photos/exifsamples__Canon_40D.jpg"

    /// The bytes of `count` pieces of a corpus file, in order.
    static func pieces(of file: String, count: Int) throws -> [[UInt8]] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
        let size = (bytes.count + count - 1) / count
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    /// A piece as a request brings it: a file in the library's work folder.
    static func piece(_ bytes: [UInt8], in library: Library, checksum: UploadPieceFile.Checksum? = nil) throws -> UploadPieceFile {
        let path = "\(library.temporaryFolder)/\(UUID().uuidString).upload"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return UploadPieceFile(path: path, checksum: checksum)
    }

    static func open(_ library: Library, length: Int?, client: String = "127.0.0.1", source: AssetSource = .upload) async throws -> Upload {
        try await library.uploads.createUpload(
            NewUpload(
                length: length, originalFilename: "IMG_0001.JPG", source: source, saveToCameraRoll: true, client: client, owner: .first))
    }

    /// Everything the library's partial-upload store holds.
    static func storedUploads(_ library: Library) async throws -> [String] {
        try await offThePool { try library.uploads.partialUploads.uploads() }
    }

    @Test(arguments: Engine.allCases) func piecesBecomeTheAssetByteForByte(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let pieces = try Self.pieces(of: Self.photo, count: 3)
        var upload = try await Self.open(library, length: pieces.map(\.count).reduce(0, +))
        #expect(upload.state == .receiving && upload.offset == 0)
        for piece in pieces {
            let file = try Self.piece(piece, in: library)
            let digest = try FileDigest.sha256(ofPartsOf: file.path, size: piece.count, partSize: piece.count).whole
            upload = try await library.uploads.appendToUpload(
                upload.id, at: upload.offset, piece: UploadPieceFile(path: file.path, checksum: .sha256(Hex.bytes(Array(digest.utf8))!)),
                owner: .first)
        }
        guard case .done(let id, let duplicate) = upload.state else {
            Issue.record("the last piece leaves \(upload.state)")
            return
        }
        #expect(!duplicate)
        let asset = try await library.catalog.asset(id, owner: .first)
        #expect(asset.blobHash == Corpus.entries()[Self.photo]?.sha256)
        #expect(asset.originalFilename == "IMG_0001.JPG" && asset.inCameraRoll)
        #expect(try await library.uploads.upload(upload.id, owner: .first).state == .done(assetID: id, duplicate: false))
        #expect(try await Self.storedUploads(library).isEmpty)
    }

    @Test func aPieceThatDoesNotFitChangesNothing() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let pieces = try Self.pieces(of: Self.photo, count: 2)
        let upload = try await Self.open(library, length: pieces[0].count + pieces[1].count)
        let first = try await library.uploads.appendToUpload(upload.id, at: 0, piece: try Self.piece(pieces[0], in: library), owner: .first)

        await #expect(throws: LibraryError.self) {
            try await library.uploads.appendToUpload(upload.id, at: 0, piece: try Self.piece(pieces[1], in: library), owner: .first)
        }
        for wrong in [UploadPieceFile.Checksum.sha256(Array(repeating: 7, count: 32)), .sha1(Array(repeating: 7, count: 20))] {
            do {
                _ = try await library.uploads.appendToUpload(
                    upload.id, at: first.offset, piece: try Self.piece(pieces[1], in: library, checksum: wrong), owner: .first)
                Issue.record("a piece whose checksum differs was kept")
            } catch let error as LibraryError {
                #expect(error.code == .checksumMismatch)
            }
        }
        do {
            _ = try await library.uploads.appendToUpload(
                upload.id, at: first.offset, piece: try Self.piece(pieces[1] + [0], in: library), owner: .first)
            Issue.record("a piece past the length was kept")
        } catch let error as LibraryError {
            #expect(error.code == .tooLarge)
        }
        #expect(try await library.uploads.upload(upload.id, owner: .first).offset == pieces[0].count)

        // SHA-1, the algorithm every tus server takes (SHA-256 is checked by the engines' test above).
        let checked = try Self.piece(pieces[1], in: library)
        let digest = try FileDigest.sha1(of: checked.path)
        let done = try await library.uploads.appendToUpload(
            upload.id, at: first.offset, piece: UploadPieceFile(path: checked.path, checksum: .sha1(Hex.bytes(Array(digest.utf8))!)),
            owner: .first)
        guard case .done(let id, _) = done.state else {
            Issue.record("the checked last piece leaves \(done.state)")
            return
        }
        #expect(try await library.catalog.asset(id, owner: .first).blobHash == Corpus.entries()[Self.photo]?.sha256)
        // The request bodies went: into the upload, or away.
        let left = try FileManager.default.contentsOfDirectory(atPath: library.temporaryFolder).filter { $0.hasSuffix(".upload") }
        #expect(left.isEmpty)
    }

    /// An upload of `pieces` that got the first, by a library on `directory` that is then closed.
    static func halfUploaded(_ pieces: [[UInt8]], in directory: TemporaryDirectory) async throws -> String {
        let library = try Library(folder: DataFolder(directory.path))
        let upload = try await open(library, length: pieces[0].count + pieces[1].count)
        let id = try await library.uploads.appendToUpload(upload.id, at: 0, piece: try piece(pieces[0], in: library), owner: .first).id
        try await library.flush()
        return id
    }

    @Test func anUploadGoesOnAfterTheLibraryIsOpenedAgain() async throws {
        let directory = TemporaryDirectory("cameraroll-uploads")
        let pieces = try Self.pieces(of: Self.photo, count: 2)
        let id = try await Self.halfUploaded(pieces, in: directory)
        let reopened = try Library(folder: DataFolder(directory.path))
        let upload = try await reopened.uploads.upload(id, owner: .first)
        #expect(upload.offset == pieces[0].count)
        let done = try await reopened.uploads.appendToUpload(
            id, at: upload.offset, piece: try Self.piece(pieces[1], in: reopened), owner: .first)
        guard case .done(let asset, _) = done.state else {
            Issue.record("the last piece after a restart leaves \(done.state)")
            return
        }
        #expect(try await reopened.catalog.asset(asset, owner: .first).blobHash == Corpus.entries()[Self.photo]?.sha256)
    }

    @Test func bytesAlreadyInTheLibraryGiveTheExistingAsset() async throws {
        let fixture = try LibraryFixture()
        let existing = try await fixture.importCorpus(Self.photo).asset
        let whole = try Self.pieces(of: Self.photo, count: 1)[0]
        let upload = try await Self.open(fixture.library, length: whole.count)
        let done = try await fixture.library.uploads.appendToUpload(
            upload.id, at: 0, piece: try Self.piece(whole, in: fixture.library), owner: .first)
        #expect(done.state == .done(assetID: existing.id, duplicate: true))
    }

    @Test func aFileTheImportRefusesIsRefusedForGoodAndSaysWhy() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let bytes = Array("this is not a photo, only text that says it is one".utf8)
        let upload = try await Self.open(library, length: bytes.count)
        do {
            _ = try await library.uploads.appendToUpload(upload.id, at: 0, piece: try Self.piece(bytes, in: library), owner: .first)
            Issue.record("text became an asset")
        } catch let error as LibraryError {
            #expect(error.code == .unsupportedType)
            #expect(try await library.uploads.upload(upload.id, owner: .first).state == .refused(error))
        }
        #expect(try await Self.storedUploads(library).isEmpty)
    }

    @Test func cancelledAndExpiredUploadsLeaveNothing() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let pieces = try Self.pieces(of: Self.photo, count: 2)
        let cancelled = try await Self.open(library, length: pieces[0].count + pieces[1].count)
        _ = try await library.uploads.appendToUpload(cancelled.id, at: 0, piece: try Self.piece(pieces[0], in: library), owner: .first)
        let opened = try await Self.open(library, length: pieces[0].count + pieces[1].count)
        // Its last piece moves its expiry on: that is the one that counts.
        let abandoned = try await library.uploads.appendToUpload(
            opened.id, at: 0, piece: try Self.piece(pieces[0], in: library), owner: .first)
        #expect(abandoned.expires >= opened.expires)
        #expect(try await Self.storedUploads(library).count == 2)

        try await library.uploads.terminateUpload(cancelled.id, owner: .first)
        await #expect(throws: LibraryError(.notFound, "There is no such upload; it may have expired or been cancelled.")) {
            try await library.uploads.upload(cancelled.id, owner: .first)
        }
        #expect(try await Self.storedUploads(library) == [abandoned.id])

        #expect(try await library.collectGarbage(now: Date()).expiredUploads == 0)
        let report = try await library.collectGarbage(now: abandoned.expires.addingTimeInterval(1))
        #expect(report.expiredUploads == 1)
        #expect(try await Self.storedUploads(library).isEmpty)
    }

    /// On the clock itself, not a `now` handed in: an expired upload is gone for its client and
    /// for collection alike, bytes and all. The library opened again with an expiry the upload is
    /// already past stands for the day that has gone by.
    @Test func anUploadLeftPastItsExpiryIsCollected() async throws {
        let directory = TemporaryDirectory("cameraroll-uploads")
        let pieces = try Self.pieces(of: Self.photo, count: 2)
        let id = try await Self.halfUploaded(pieces, in: directory)
        var options = Library.Options()
        options.uploadExpiry = 0.001
        let later = try Library(folder: DataFolder(directory.path), options: options)
        await #expect(throws: LibraryError(.notFound, "There is no such upload; it may have expired or been cancelled.")) {
            try await later.uploads.upload(id, owner: .first)
        }
        #expect(try await Self.storedUploads(later) == [id])
        #expect(try await later.collectGarbage().expiredUploads == 1)
        #expect(try await Self.storedUploads(later).isEmpty)
    }

    @Test func aClientHasAQuotaOfOpenUploads() async throws {
        var options = Library.Options()
        options.openUploadsPerClient = 2
        let fixture = try LibraryFixture(options)
        _ = try await Self.open(fixture.library, length: 10)
        let second = try await Self.open(fixture.library, length: 10)
        do {
            _ = try await Self.open(fixture.library, length: 10)
            Issue.record("a third upload was opened")
        } catch let error as LibraryError {
            #expect(error.code == .tooManyUploads)
        }
        _ = try await Self.open(fixture.library, length: 10, client: "192.0.2.7")
        try await fixture.library.uploads.terminateUpload(second.id, owner: .first)
        _ = try await Self.open(fixture.library, length: 10)
    }

    @Test func anUploadStartedOnOneServerIsFinishedOnTheOther() async throws {
        let pair = try await RenditionQueueTests.Pair()
        let pieces = try Self.pieces(of: Self.photo, count: 2)
        let upload = try await Self.open(pair.first, length: pieces[0].count + pieces[1].count)
        let half = try await pair.first.uploads.appendToUpload(
            upload.id, at: 0, piece: try Self.piece(pieces[0], in: pair.first), owner: .first)
        #expect(try await pair.second.uploads.upload(upload.id, owner: .first).offset == half.offset)
        // The same offset again, on the first server, after the second took it: a conflict.
        let done = try await pair.second.uploads.appendToUpload(
            upload.id, at: half.offset, piece: try Self.piece(pieces[1], in: pair.second), owner: .first)
        await #expect(throws: LibraryError.self) {
            try await pair.first.uploads.appendToUpload(
                upload.id, at: half.offset, piece: try Self.piece(pieces[1], in: pair.first), owner: .first)
        }
        guard case .done(let id, _) = done.state else {
            Issue.record("the last piece on the other server leaves \(done.state)")
            return
        }
        #expect(try await pair.first.catalog.asset(id, owner: .first).blobHash == Corpus.entries()[Self.photo]?.sha256)
        #expect(try await offThePool { try pair.bucket.list(prefix: "uploads/") }.isEmpty)
    }

    static let recording = "videos/androidx-media__bear-vp9.webm"

    @Test func aStreamWithoutALengthEndsWithTheLengthItsLastPieceTells() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let pieces = try Self.pieces(of: Self.recording, count: 3)
        var upload = try await Self.open(library, length: nil, source: .camera)
        #expect(upload.length == nil)
        for piece in pieces {
            upload = try await library.uploads.appendToUpload(
                upload.id, at: upload.offset, piece: try Self.piece(piece, in: library), owner: .first)
        }
        #expect(upload.state == .receiving && upload.length == nil)
        let total = pieces.map(\.count).reduce(0, +)
        do {
            _ = try await library.uploads.appendToUpload(
                upload.id, at: upload.offset, piece: try Self.piece([], in: library), length: total - 1, owner: .first)
            Issue.record("a length short of the bytes in was taken")
        } catch let error as LibraryError {
            #expect(error.code == .tooLarge)
        }
        let done = try await library.uploads.appendToUpload(
            upload.id, at: upload.offset, piece: try Self.piece([], in: library), length: total, owner: .first)
        guard case .done(let id, _) = done.state else {
            Issue.record("the length's piece leaves \(done.state)")
            return
        }
        let asset = try await library.catalog.asset(id, owner: .first)
        #expect(asset.blobHash == Corpus.entries()[Self.recording]?.sha256)
        #expect(asset.source == .camera && asset.mediaType == .movie)
    }

    @Test func anAbandonedStreamBecomesAnAssetOfWhatCameAndAnUnfinishedFileDoesNot() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let pieces = try Self.pieces(of: Self.recording, count: 2)
        let stream = try await Self.open(library, length: nil, source: .camera)
        _ = try await library.uploads.appendToUpload(
            stream.id, at: 0, piece: try Self.piece(pieces[0] + pieces[1], in: library), owner: .first)
        let file = try await Self.open(library, length: pieces[0].count + pieces[1].count)
        _ = try await library.uploads.appendToUpload(file.id, at: 0, piece: try Self.piece(pieces[0], in: library), owner: .first)

        #expect(try await library.uploads.finishAbandonedStreams(idle: 60) == 0, "a stream a piece reached just now is left open")
        #expect(try await library.uploads.finishAbandonedStreams(idle: 60, now: Date().addingTimeInterval(61)) == 1)
        let finished = try await library.uploads.upload(stream.id, owner: .first)
        #expect(finished.length == pieces[0].count + pieces[1].count)
        guard case .done(let id, _) = finished.state else {
            Issue.record("the abandoned stream is \(finished.state)")
            return
        }
        #expect(try await library.catalog.asset(id, owner: .first).blobHash == Corpus.entries()[Self.recording]?.sha256)
        #expect(try await library.uploads.upload(file.id, owner: .first).state == .receiving, "a file with a length waits for its client")
    }
}
