import Foundation
import PhotoLibrary
import PostgreSQL
import S3
import Storage
import TestSupport
import Testing

/// The stores a library runs on, for tests that must hold on each: the embedded default, its
/// metadata on PostgreSQL, and the cluster's (PostgreSQL and an S3 bucket on radosgw).
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL
    case postgreSQLAndS3

    /// The engines that keep originals in the data folder, for tests that look there.
    static let withLocalBlobs: [Engine] = [.sqlite, .postgreSQL]

    var testDescription: String { rawValue }
}

/// A library in a fresh temp folder, removed with the fixture; on PostgreSQL, with a database of
/// its own on the tests' cluster and its originals in the folder.
final class LibraryFixture: Sendable {
    let directory = TemporaryDirectory("cameraroll-library")
    let library: Library

    init(_ options: Library.Options = Library.Options()) throws {
        library = try Library(folder: DataFolder(directory.path), options: options)
    }

    init(_ engine: Engine, _ options: Library.Options = Library.Options()) async throws {
        switch engine {
        case .sqlite:
            library = try Library(folder: DataFolder(directory.path), options: options)
        case .postgreSQL:
            let database = try await PostgresDatabase(url: try await ThrowawayPostgres.newDatabase(), migrations: LibrarySchema.postgreSQL)
            let folder = DataFolder(directory.path)
            library = try Library(
                folder: folder, database: database, blobs: try FileBlobStore(root: folder.blobs),
                partialUploads: try FilePartialUploads(root: folder.uploads), options: options)
        case .postgreSQLAndS3:
            let database = try await PostgresDatabase(url: try await ThrowawayPostgres.newDatabase(), migrations: LibrarySchema.postgreSQL)
            let gateway = try await ThrowawayCeph.start()
            let client = S3Client(
                bucket: S3Bucket(
                    endpoint: gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1", accessKeyID: gateway.accessKeyID,
                    secretAccessKey: gateway.secretAccessKey))
            try await offThePool { try client.createBucket() }
            let folder = DataFolder(directory.path)
            let blobs = try S3BlobStore(client: client, cacheFolder: folder.originalsCache)
            library = try Library(
                folder: folder, database: database, blobs: blobs, partialUploads: S3PartialUploads(client: client), options: options)
        }
    }

    var folder: DataFolder { library.folder }

    @discardableResult
    func importCorpus(_ file: String, source: AssetSource = .imported, saveToCameraRoll: Bool = false) async throws(LibraryError)
        -> ImportResult
    {
        try await library.ingest.importFile(at: Corpus.path(file), source: source, saveToCameraRoll: saveToCameraRoll, owner: .first)
    }

    /// Files below a folder of the library's data folder, relative names.
    /// What is in this library's work folder: the lock beside it is its own and does not count.
    var workFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: library.temporaryFolder)) ?? []
    }

    func files(in subfolder: String) -> [String] {
        let root = "\(folder.root)/\(subfolder)"
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var names: [String] = []
        while let name = enumerator.nextObject() as? String {
            if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular { names.append(name) }
        }
        return names
    }
}

/// The code of the library's error `body` threw; nil when it threw none (or another kind).
func libraryErrorCode(_ body: () async throws -> Void) async -> LibraryError.Code? {
    do {
        try await body()
        return nil
    } catch {
        return (error as? LibraryError)?.code
    }
}
