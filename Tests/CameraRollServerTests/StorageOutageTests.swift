import Foundation
import PhotoLibrary
import PostgreSQL
import Storage
import TestSupport
import Testing

/// A database that stops answering is an outage, not the client's fault nor a crash: 503
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
        let library = try Library(
            folder: DataFolder(directory.path), database: database, blobs: try FileBlobStore(root: DataFolder(directory.path).blobs))
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
}
