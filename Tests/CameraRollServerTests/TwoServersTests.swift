import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import PostgreSQL
import S3
import Storage
import TestSupport
import Testing

/// Two servers over one library on PostgreSQL and an S3 bucket (radosgw), each with its own data
/// folder: what one stores the other lists and serves with the same validators, and the links a
/// picker on one gives out open on the other.
@Suite struct TwoServersTests {
    final class Cluster: Sendable {
        let first: LiveServer
        let second: LiveServer

        init() async throws {
            let url = try await ThrowawayPostgres.newDatabase()
            let gateway = try await ThrowawayCeph.start()
            let bucket = S3Bucket(
                endpoint: gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1", accessKeyID: gateway.accessKeyID,
                secretAccessKey: gateway.secretAccessKey)
            try await offThePool { try S3Client(bucket: bucket).createBucket() }
            first = try await Self.server(url, bucket)
            second = try await Self.server(url, bucket)
        }

        /// Both servers believe X-Forwarded-For from loopback, so a test can ask as a stranger.
        private static func server(_ url: String, _ bucket: S3Bucket) async throws -> LiveServer {
            let directory = TemporaryDirectory("cameraroll-cluster")
            let folder = DataFolder(directory.path)
            let database = try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL)
            let blobs = try S3BlobStore(client: S3Client(bucket: bucket), cacheFolder: folder.originalsCache)
            let library = try Library(folder: folder, database: database, blobs: blobs)
            let key = try await CapabilityKey.shared { offered in try await library.sharedRecord("capability-key", orElse: offered) }
            return try LiveServer(
                directory, library: library, capabilityKey: key, forwardedFor: ForwardedFor(proxies: [IPAddress("127.0.0.1")!]))
        }
    }

    @Test func anUploadThroughOneIsListedAndServedByTheOtherWithTheSameValidator() async throws {
        let cluster = try await Cluster()
        let uploaded = try await cluster.first.upload("photos/exifsamples__Canon_40D.jpg")
        #expect(uploaded.status == 201)
        let id = try #require(uploaded.json["id"] as? String)
        let listed = try await cluster.second.get("/api/assets")
        #expect((listed.json["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])

        let fromFirst = try await cluster.first.get("/media/\(id)/thumbnail?size=256")
        let fromSecond = try await cluster.second.get("/media/\(id)/thumbnail?size=256")
        #expect(fromFirst.status == 200 && fromSecond.status == 200)
        let etag = try #require(fromFirst.header("ETag"))
        #expect(fromSecond.header("ETag") == etag, "the validator comes from the recipe, not the file")
        #expect(try await cluster.second.get("/media/\(id)/thumbnail?size=256", headers: ["If-None-Match": etag]).status == 304)
        let original = try await cluster.second.get("/media/\(id)/original")
        #expect(original.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/exifsamples__Canon_40D.jpg")))))
    }

    @Test func aLinkOnePickerGaveOutOpensOnTheOther() async throws {
        let cluster = try await Cluster()
        let id = try #require(try await cluster.first.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let session = try await cluster.first.request(
            "POST", "/api/picker/sessions", body: Data(#"{"sourceType":"photoLibrary","mediaTypes":["public.image"]}"#.utf8))
        let sessionID = try #require(session.json["id"] as? String)
        for (event, asset) in [("open", nil), ("choose", id)] as [(String, String?)] {
            var body = ["event": event]
            body["assetID"] = asset
            #expect(
                try await cluster.first.request("POST", "/api/picker/sessions/\(sessionID)/events", body: try JSONEncoder().encode(body))
                    .status == 200)
        }
        let info = try #require(try await cluster.first.get("/api/picker/sessions/\(sessionID)").json["info"] as? [String: Any])
        let link = try #require(info["originalImage"] as? String)
        #expect(link.contains("cap="))
        let stranger = ["X-Forwarded-For": "198.51.100.7"]
        #expect(
            try await cluster.second.get("/media/\(id)/original", headers: stranger).status == 401,
            "a stranger without the link gets nothing")
        let opened = try await cluster.second.get(link, headers: stranger)
        #expect(opened.status == 200, "the key that signed the link is the one both servers share")
        #expect(opened.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/recurser__Landscape_1.jpg")))))
    }
}
