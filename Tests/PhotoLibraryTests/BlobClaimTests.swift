import Foundation
import PhotoLibrary
import PostgreSQL
import Storage
import Synchronization
import TestSupport
import Testing

/// Originals go into the blob store and out of it with no transaction open (`blob_claims`), and
/// a store and a removal of the same bytes never cross.
@Suite struct BlobClaimTests {
    static let photo = "photos/exifsamples__Canon_40D.jpg"

    /// While the blob store takes an original, no transaction of the library's is open: on
    /// SQLite a write gets through at once, on PostgreSQL no connection is idle in one.
    @Test(arguments: Engine.withLocalBlobs) func noTransactionIsOpenWhileABlobIsStored(engine: Engine) async throws {
        let directory = TemporaryDirectory("cameraroll-claims")
        let folder = DataFolder(directory.path)
        let database: any SQLDatabase
        switch engine {
        case .postgreSQL:
            database = try await PostgresDatabase(url: try await ThrowawayPostgres.newDatabase(), migrations: LibrarySchema.postgreSQL)
        default:
            try PrivateFolder.prepare(folder.root)
            database = try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite)
        }
        let watched = WatchedBlobs(try FileBlobStore(root: folder.blobs), database: database, engine: engine)
        let library = try Library(
            folder: folder, database: database, blobs: watched, partialUploads: try FilePartialUploads(root: folder.uploads))
        let imported = try await library.ingest.importFile(at: Corpus.path(Self.photo))
        #expect(watched.seen.withLock { $0 } == ["no transaction"])
        try await library.ingest.deletePermanently(imported.asset.id)
        #expect(watched.seen.withLock { $0 } == ["no transaction", "no transaction"])
        #expect(try await claims(database).isEmpty)
    }

    /// A store of bytes whose removal is under way waits for the removal to end, and then
    /// stores them afresh; a removal claimed longer ago than its lease is taken for abandoned.
    @Test(arguments: Engine.withLocalBlobs) func aStoreWaitsForARemovalUnderWay(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let hash = try #require(Corpus.entries()[Self.photo]?.sha256)
        try await claim(hash, "remove", at: Date(), fixture.library.database)
        let done = Atomic<Bool>(false)
        let importing = Task {
            defer { done.store(true, ordering: .sequentiallyConsistent) }
            return try await fixture.importCorpus(Self.photo)
        }
        try await Task.sleep(for: .milliseconds(600))
        let finishedEarly = done.load(ordering: .sequentiallyConsistent)
        #expect(!finishedEarly, "the store waits while the removal is under way")
        #expect(fixture.files(in: "blobs").isEmpty)
        _ = try await fixture.library.database.write { connection throws(StorageError) in
            try connection.run("DELETE FROM blob_claims WHERE purpose = 'remove'")
        }
        let imported = try await importing.value
        #expect(fixture.files(in: "blobs").count == 1)
        #expect(try await claims(fixture.library.database).isEmpty)

        try await fixture.library.ingest.deletePermanently(imported.asset.id)
        try await claim(hash, "remove", at: Date(timeIntervalSinceNow: -3600), fixture.library.database)
        _ = try await fixture.importCorpus(Self.photo)
        #expect(fixture.files(in: "blobs").count == 1, "an abandoned removal keeps nobody waiting")
        #expect(try await claims(fixture.library.database).isEmpty)
    }

    /// A removal is not claimed while a store of the same bytes is under way: the blob stays,
    /// an orphan, until collection drops the store's claim after its grace.
    @Test(arguments: Engine.withLocalBlobs) func aStoreUnderWayKeepsTheBlobFromRemoval(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let imported = try await fixture.importCorpus(Self.photo)
        try await claim(imported.asset.blobHash, "store", at: Date(), fixture.library.database)
        try await fixture.library.ingest.deletePermanently(imported.asset.id)
        #expect(fixture.files(in: "blobs").count == 1, "another import may be about to name it")
        #expect(try await fixture.library.collectGarbage(grace: 3600).blobsRemoved == 0)
        #expect(fixture.files(in: "blobs").count == 1)
        #expect(try await fixture.library.collectGarbage(grace: 0, now: Date(timeIntervalSinceNow: 1)).blobsRemoved == 1)
        #expect(fixture.files(in: "blobs").isEmpty)
        #expect(try await claims(fixture.library.database).isEmpty)
    }

    private func claim(_ hash: String, _ purpose: String, at date: Date, _ database: any SQLDatabase) async throws {
        _ = try await database.write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO blob_claims (token, blob_hash, purpose, claimed_at) VALUES (?, ?, ?, ?)",
                [UUID().uuidString, hash, purpose, date.timeIntervalSince1970])
        }
    }

    private func claims(_ database: any SQLDatabase) async throws -> [String] {
        try await database.read { connection throws(StorageError) in
            try connection.query("SELECT purpose FROM blob_claims").map { row throws(StorageError) in try row.text("purpose") }
        }
    }
}

/// A blob store that looks, at each put and remove, whether the library holds a transaction
/// open meanwhile.
private final class WatchedBlobs: BlobStore {
    let inner: FileBlobStore
    let database: any SQLDatabase
    let engine: Engine
    let seen = Mutex<[String]>([])

    init(_ inner: FileBlobStore, database: any SQLDatabase, engine: Engine) {
        self.inner = inner
        self.database = database
        self.engine = engine
    }

    func put(_ staged: StagedFile) throws(StorageError) {
        look()
        try inner.put(staged)
    }

    func remove(_ hash: String) throws(StorageError) {
        look()
        try inner.remove(hash)
    }

    func contains(_ hash: String) -> Bool { inner.contains(hash) }
    func localFile(_ hash: String) throws(StorageError) -> String { try inner.localFile(hash) }
    func allBlobs() -> [(hash: String, modified: Date)] { inner.allBlobs() }

    /// Called on the library's work thread, so it may wait: a write of our own behind a write
    /// transaction left open would wait for ever, and is given five seconds.
    private func look() {
        let answer = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task { [database, engine] in
            let found: String
            do {
                switch engine {
                case .sqlite:
                    try await database.write { _ throws(StorageError) in }
                    found = "no transaction"
                default:
                    let open = try await database.read { connection throws(StorageError) in
                        try connection.query(
                            """
                            SELECT count(*) AS open FROM pg_stat_activity
                            WHERE datname = current_database() AND state LIKE 'idle in transaction%'
                            """
                        ).first?.integer("open") ?? -1
                    }
                    found = open == 0 ? "no transaction" : "\(open) open"
                }
            } catch {
                found = "\(error)"
            }
            answer.withLock { $0 = found }
            finished.signal()
        }
        let outcome = finished.wait(timeout: .now() + 5) == .success ? answer.withLock { $0 } ?? "?" : "a transaction held the writer"
        seen.withLock { $0.append(outcome) }
    }
}
