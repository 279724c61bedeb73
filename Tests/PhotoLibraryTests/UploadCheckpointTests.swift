import Foundation
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// Pieces between an upload's checkpoints are counted once written, not fsynced: a new process
/// on the same boot of the machine finds them, one on the machine's next boot finds the upload
/// back at its last fsynced piece, and the client's resent bytes finish it byte for byte.
@Suite struct UploadCheckpointTests {
    let directory = TemporaryDirectory("cameraroll-checkpoints")

    /// A library on `directory` as a server started on the boot `boot` opens it.
    func library(boot: String, checkpoint: Library.UploadCheckpoint = .init(bytes: 1 << 30, seconds: 3600)) throws -> Library {
        var options = Library.Options()
        options.uploadCheckpoint = checkpoint
        let folder = DataFolder(directory.path)
        return try Library(
            folder: folder, database: try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite),
            blobs: try FileBlobStore(root: folder.blobs), partialUploads: try FilePartialUploads(root: folder.uploads, boot: boot),
            options: options)
    }

    /// Sends `pieces` from the upload's offset on, and closes the library as a stopped server does.
    func send(_ pieces: [[UInt8]], to id: String, in library: Library) async throws -> Upload {
        var upload = try await library.uploads.upload(id, owner: .first)
        for piece in pieces {
            upload = try await library.uploads.appendToUpload(
                id, at: upload.offset, piece: try ResumableUploadTests.piece(piece, in: library), owner: .first)
        }
        try await library.flush()
        return upload
    }

    @Test func aRestartOfTheMachineTakesAnUploadBackToItsLastFsyncedPiece() async throws {
        let pieces = try ResumableUploadTests.pieces(of: ResumableUploadTests.photo, count: 4)
        let sizes = pieces.map(\.count)
        let id = try await {
            let first = try library(boot: "first")
            let upload = try await ResumableUploadTests.open(first, length: sizes.reduce(0, +))
            return try await send(Array(pieces[0..<3]), to: upload.id, in: first).id
        }()

        // Another process on the same boot: the cache kept every counted byte.
        #expect(try await library(boot: "first").uploads.upload(id, owner: .first).offset == sizes[0] + sizes[1] + sizes[2])

        // What a power cut may leave: the fsynced first piece, nothing of the two cached after it.
        #expect(truncate("\(DataFolder(directory.path).uploads)/\(id)", off_t(sizes[0])) == 0)
        let second = try library(boot: "second")
        #expect(
            try await second.uploads.upload(id, owner: .first).offset == sizes[0], "the client is told to send from the last fsynced piece")
        let done = try await send(Array(pieces[1...]), to: id, in: second)
        guard case .done(let asset, _) = done.state else {
            Issue.record("the resent pieces leave \(done.state)")
            return
        }
        #expect(try await second.catalog.asset(asset, owner: .first).blobHash == Corpus.entries()[ResumableUploadTests.photo]?.sha256)
    }

    @Test func aPieceIsFsyncedOnceTheCheckpointsBytesOrSecondsHaveGoneBy() async throws {
        let pieces = try ResumableUploadTests.pieces(of: ResumableUploadTests.photo, count: 4)
        let sizes = pieces.map(\.count)
        let length = sizes.reduce(0, +)
        // Two pieces' worth of bytes: the second after the first fsynced one is the next checkpoint.
        let byBytes = try await {
            let first = try library(boot: "first", checkpoint: .init(bytes: sizes[1] + sizes[2], seconds: 3600))
            let upload = try await ResumableUploadTests.open(first, length: length)
            return try await send(Array(pieces[0..<3]), to: upload.id, in: first).id
        }()
        // No time at all: every piece is a checkpoint.
        let bySeconds = try await {
            let first = try library(boot: "first", checkpoint: .init(bytes: 1 << 30, seconds: 0))
            let upload = try await ResumableUploadTests.open(first, length: length)
            return try await send(Array(pieces[0..<2]), to: upload.id, in: first).id
        }()
        let second = try library(boot: "second")
        #expect(try await second.uploads.upload(byBytes, owner: .first).offset == sizes[0] + sizes[1] + sizes[2])
        #expect(try await second.uploads.upload(bySeconds, owner: .first).offset == sizes[0] + sizes[1])
    }
}
