import Foundation
import PostgreSQL
import S3
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// Renditions made once for every server sharing a library (PostgreSQL and a radosgw bucket),
/// and a job whose worker died claimed again, its stale completion refused.
@Suite struct RenditionQueueTests {
    /// Two libraries as two servers would have them: one database, one bucket, two data folders.
    struct Pair: Sendable {
        let directories = (TemporaryDirectory("cameraroll-renditions"), TemporaryDirectory("cameraroll-renditions"))
        let url: String
        let first: Library
        let second: Library
        let bucket: S3Client

        init(lease: TimeInterval = 30) async throws {
            url = try await ThrowawayPostgres.newDatabase()
            let gateway = try await ThrowawayCeph.start()
            bucket = S3Client(
                bucket: S3Bucket(
                    endpoint: gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1", accessKeyID: gateway.accessKeyID,
                    secretAccessKey: gateway.secretAccessKey))
            try await offThePool { [bucket] in try bucket.createBucket() }
            var options = Library.Options()
            options.renditionLease = lease
            first = try await Self.library(directories.0, url, bucket, options)
            second = try await Self.library(directories.1, url, bucket, options)
        }

        private static func library(_ directory: TemporaryDirectory, _ url: String, _ bucket: S3Client, _ options: Library.Options)
            async throws -> Library
        {
            let folder = DataFolder(directory.path)
            let database = try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL)
            return try Library(
                folder: folder, database: database, blobs: try S3BlobStore(client: bucket, cacheFolder: folder.originalsCache),
                partialUploads: S3PartialUploads(client: bucket), options: options)
        }

        func job(_ hash: String) async throws -> (state: String, attempt: Int) {
            let row = try await first.database.read { connection throws(StorageError) in
                try connection.query("SELECT state, attempt FROM rendition_jobs WHERE blob_hash = ?", [hash]).first
            }
            let found = try #require(row)
            return (try found.text("state"), try found.integer("attempt"))
        }
    }

    @Test func aRenditionAskedOfBothServersIsMadeOnceAndServedByBoth() async throws {
        let pair = try await Pair()
        let movie = try await pair.first.ingest.importFile(
            at: Corpus.path("videos/photoprism__quicktime-hvc1.mov"), source: .imported, owner: .first
        )
        .asset
        #expect(try await pair.second.mediaJobs.renditionStatus(of: movie.id, owner: .first) == .notStarted)
        async let fromFirst = pair.first.mediaJobs.playableVideo(of: movie.id, owner: .first)
        async let fromSecond = pair.second.mediaJobs.playableVideo(of: movie.id, owner: .first)
        let (a, b) = try await (fromFirst, fromSecond)
        #expect(a.mimeType == "video/mp4" && b.mimeType == "video/mp4")
        #expect(try Data(contentsOf: URL(fileURLWithPath: a.path)) == Data(contentsOf: URL(fileURLWithPath: b.path)), "one rendition")
        #expect(try await VideoProbe.duration(b.path) > 0)
        let job = try await pair.job(movie.blobHash)
        #expect(job.state == "done" && job.attempt == 1, "claimed once: one ffmpeg run for both")
        #expect(try await pair.first.mediaJobs.renditionStatus(of: movie.id, owner: .first) == .ready)
        #expect(try await pair.second.mediaJobs.renditionStatus(of: movie.id, owner: .first) == .ready)
        let objects = try await offThePool { [bucket = pair.bucket] in try bucket.list(prefix: "blobs/").count }
        #expect(objects == 2, "the original and the rendition")
        #expect(try await pair.second.collectGarbage(grace: 0).blobsRemoved == 0, "a rendition's output is not an orphan")

        try await pair.first.ingest.deletePermanently(movie.id)
        #expect(try await pair.second.collectGarbage(grace: 0).blobsRemoved == 1, "with its movie gone, the output is")
    }

    /// A worker that stopped renewing its claim (its server was killed) loses the job once the
    /// lease runs out (here made to have run out, rather than waited for): the next claim has the next attempt, and what the first worker says later
    /// changes nothing.
    @Test func aJobWhoseWorkerDiedIsClaimedAgainAndItsStaleCompletionRefused() async throws {
        let database = try await PostgresDatabase(url: try await ThrowawayPostgres.newDatabase(), migrations: LibrarySchema.postgreSQL)
        let dead = RenditionQueue(database: database, lease: 60)
        let living = RenditionQueue(database: database, lease: 30)
        let hash = String(repeating: "ab", count: 32)
        try await dead.enqueue(hash, DerivativeKey.playable)
        let stale = try #require(try await dead.claim())
        #expect(stale.attempt == 1)
        #expect(try await living.claim() == nil, "a job under a live lease is nobody else's")
        #expect(try await living.standing(hash, DerivativeKey.playable) == .running(progress: 0))
        // The dead worker's last renewal, a lease ago.
        _ = try await database.write { connection throws(StorageError) in
            try connection.run("UPDATE rendition_jobs SET lease_until = ? WHERE blob_hash = ?", [Date().timeIntervalSince1970 - 1, hash])
        }
        #expect(try await living.claim()?.attempt == 2, "claimed again once the lease ran out")
        #expect(try await dead.renew(stale, progress: 0.5) == false)
        let completeStale = try await database.write { connection throws(StorageError) in
            try RenditionQueue.complete(stale, output: String(repeating: "cd", count: 32), connection)
        }
        #expect(completeStale == false, "the stale completion is refused")
        #expect(try await dead.fail(stale, LibraryError(.timeout, "late")) == false)
        let current = RenditionQueue.Claim(hash: hash, derivative: DerivativeKey.playable, attempt: 2)
        #expect(
            try await database.write { connection throws(StorageError) in
                try RenditionQueue.complete(current, output: String(repeating: "ef", count: 32), connection)
            })
        #expect(try await living.standing(hash, DerivativeKey.playable) == .done(output: String(repeating: "ef", count: 32)))
    }

    /// A movie whose job a dead server left running: a library's worker takes it over when the
    /// lease has run out, and whoever asks gets the rendition. The dead server's lease is left
    /// already run out, and the living ones have the usual lease: with a 1 s lease a loaded
    /// machine renewed too late once, and a third attempt took the job over again.
    @Test func aLibraryTakesOverTheJobADeadServerLeft() async throws {
        let pair = try await Pair()
        let movie = try await pair.first.ingest.importFile(
            at: Corpus.path("videos/photoprism__quicktime-hvc1.mov"), source: .imported, owner: .first
        )
        .asset
        _ = try await pair.first.database.write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO rendition_jobs (blob_hash, derivative, state, attempt, worker, lease_until, queued_at)
                VALUES (?, ?, 'running', 1, 'a server that died', ?, ?)
                """, [movie.blobHash, DerivativeKey.playable, Date().timeIntervalSince1970 - 1, Date().timeIntervalSince1970])
        }
        #expect(try await pair.second.mediaJobs.renditionStatus(of: movie.id, owner: .first) == .making(progress: 0))
        let playable = try await pair.second.mediaJobs.playableVideo(of: movie.id, owner: .first)
        #expect(try await VideoProbe.duration(playable.path) > 0)
        let job = try await pair.job(movie.blobHash)
        #expect(job.state == "done" && job.attempt == 2)
    }
}
