import ChildProcess
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
        let probe: [String]
        switch engine {
        case .postgreSQL:
            let url = try await ThrowawayPostgres.newDatabase()
            database = try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL)
            probe = [
                "/usr/bin/psql", url, "-tAc",
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
            ]
        default:
            try PrivateFolder.prepare(folder.root)
            database = try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite)
            // Another connection's write, with no wait for the lock: refused while a write transaction is open.
            probe = ["/usr/bin/sqlite3", folder.database, "BEGIN IMMEDIATE; ROLLBACK; SELECT 0;"]
        }
        let watched = WatchedBlobs(try FileBlobStore(root: folder.blobs), probe: probe)
        let library = try Library(
            folder: folder, database: database, blobs: watched, partialUploads: try FilePartialUploads(root: folder.uploads))
        let imported = try await library.ingest.importFile(at: Corpus.path(Self.photo), owner: .first)
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
/// open meanwhile: `probe` is a program that prints 0 when none is (another connection's look,
/// run on the library's own thread, which may wait for it).
private final class WatchedBlobs: BlobStore {
    let inner: FileBlobStore
    let probe: [String]
    let seen = Mutex<[String]>([])

    init(_ inner: FileBlobStore, probe: [String]) {
        self.inner = inner
        self.probe = probe
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

    private func look() {
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(
                executable: probe[0], arguments: Array(probe.dropFirst()), environment: ProcessInfo.processInfo.environment,
                standardOutput: .pipe, standardError: .standardOutput)
        } catch {
            seen.withLock { $0.append("\(error)") }
            return
        }
        let said = String(decoding: process.standardOutput!.readAllRetryingInterrupts(), as: UTF8.self)
        let ended = process.waitUntilExit()
        let answer = said.trimmingCharacters(in: .whitespacesAndNewlines)
        seen.withLock { $0.append(ended.status == 0 && !ended.signalled && answer == "0" ? "no transaction" : "open: \(answer)") }
    }
}
