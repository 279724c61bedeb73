import Foundation
import PhotoLibrary
import PostgreSQL
import S3
import Storage
import TestSupport
import Testing

/// A database or an object store that stops answering is an outage, not the client's fault nor a crash: 503
/// `storage_unavailable` with `Retry-After`, nothing half-stored, and service again by itself once
/// the database is back.
@Suite struct StorageOutageTests {
    @Test func aDatabaseThatGoesAwayIsA503UntilItIsBack() async throws {
        let cluster = try await ThrowawayPostgres.Dedicated.start()
        let directory = TemporaryDirectory("cameraroll-server")
        var options = PostgresDatabase.Options()
        options.connectTimeout = 2
        let database = try await PostgresDatabase(
            url: try await ThrowawayPostgres.newDatabase(on: cluster.url), migrations: LibrarySchema.postgreSQL, options: options)
        let folder = DataFolder(directory.path)
        let library = try Library(
            folder: folder, database: database, blobs: try FileBlobStore(root: folder.blobs),
            partialUploads: try FilePartialUploads(root: folder.uploads))
        let live = try LiveServer(directory, library: library)
        #expect(try await live.upload("photos/exifsamples__Canon_40D.jpg").status == 201)

        try await cluster.pause()
        let listing = try await live.get("/api/assets")
        #expect(listing.status == 503)
        #expect(listing.json["code"] as? String == "storage_unavailable")
        #expect(listing.header("Retry-After") != nil)
        let upload = try await live.upload("photos/exifsamples__Nikon_D70.jpg")
        #expect(upload.status == 503 && upload.json["code"] as? String == "storage_unavailable")
        #expect(FileManager.default.enumerator(atPath: library.temporaryFolder)?.allObjects.isEmpty ?? true, "no staged file left behind")

        try await cluster.resume()
        let back = try await live.get("/api/assets")
        #expect(back.status == 200)
        #expect((back.json["assets"] as? [Any])?.count == 1, "the first upload kept, the refused one not stored")
    }

    /// radosgw that takes connections and answers none (as when an OSD behind it is gone): each
    /// request is a 503 once its deadline passes, nothing is stored, and the same server serves
    /// and stores again once radosgw is back.
    @Test func anObjectStoreThatHangsIsA503WithinItsDeadlineUntilItIsBack() async throws {
        let ceph = try await ThrowawayCeph.Dedicated.start()
        let directory = TemporaryDirectory("cameraroll-server")
        let client = S3Client(
            bucket: S3Bucket(
                endpoint: ceph.gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1",
                accessKeyID: ceph.gateway.accessKeyID, secretAccessKey: ceph.gateway.secretAccessKey))
        try await offThePool { try client.createBucket() }
        let folder = DataFolder(directory.path)
        let library = try Library(
            folder: folder, database: try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite),
            blobs: try S3BlobStore(client: client, cacheFolder: folder.originalsCache), partialUploads: S3PartialUploads(client: client))
        let live = try LiveServer(directory, library: library)
        let first = try await live.upload("photos/exifsamples__Canon_40D.jpg")
        let id = try #require(first.json["id"] as? String)

        try await ceph.freeze()
        let original = try await live.get("/media/\(id)/original")
        #expect(original.status == 503 && original.json["code"] as? String == "storage_unavailable", "not in this server's copies")
        let upload = try await live.upload("photos/exifsamples__Nikon_D70.jpg")
        #expect(upload.status == 503 && upload.json["code"] as? String == "storage_unavailable")
        #expect(upload.header("Retry-After") != nil)

        try await ceph.thaw()
        #expect(try await live.get("/media/\(id)/original").status == 200)
        #expect(try await live.upload("photos/exifsamples__Nikon_D70.jpg").status == 201, "stored once it is back")
        let listed = try await live.get("/api/assets")
        #expect((listed.json["assets"] as? [Any])?.count == 2)
        #expect(try await offThePool { try client.list(prefix: "blobs/").count } == 2)
    }
}
