import Foundation
import S3
import Storage
import TestSupport
import Testing

/// Originals in a bucket of a real radosgw (Ceph 16), through libcurl and our SigV4 signer.
@Suite struct S3BlobStoreTests {
    let directory = TemporaryDirectory("cameraroll-s3")

    func makeStores() async throws -> (StagingArea, S3BlobStore) {
        let gateway = try await ThrowawayCeph.start()
        let bucket = S3Bucket(
            endpoint: gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1", accessKeyID: gateway.accessKeyID,
            secretAccessKey: gateway.secretAccessKey)
        let client = S3Client(bucket: bucket)
        try await offThePool { try client.createBucket() }
        return (try StagingArea(folder: directory.file("tmp")), try S3BlobStore(client: client, cacheFolder: directory.file("cache")))
    }

    @Test func aBlobGoesInComesBackExactlyAndGoes() async throws {
        let (staging, store) = try await makeStores()
        let file = Corpus.path("videos/androidx-media__sample.mp4")
        let staged = try staging.stage(copying: file)
        let hash = staged.hash
        try await offThePool { try store.put(staged) }
        #expect(!FileManager.default.fileExists(atPath: staged.path), "the staged copy is consumed")
        #expect(try await offThePool { try store.contains(hash) })
        #expect(try await offThePool { try store.allBlobs().map(\.hash) } == [hash])
        let local = try await offThePool { try store.localFile(hash) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == Data(contentsOf: URL(fileURLWithPath: file)))

        // The same bytes again: stored once.
        let again = try staging.stage(copying: file)
        try await offThePool { try store.put(again) }
        #expect(try await offThePool { try store.allBlobs().count } == 1)

        try await offThePool { try store.remove(hash) }
        #expect(try await offThePool { try !store.contains(hash) })
        #expect(!FileManager.default.fileExists(atPath: local), "the local copy goes with the blob")
        await #expect(throws: StorageError.self) { try await offThePool { _ = try store.localFile(hash) } }
    }

    /// The upload names the hash the bytes were staged with, and the store checks it: bytes that
    /// changed on the way (or a staging bug) never land as that blob.
    @Test func bytesThatAreNotTheirHashAreRefusedByTheStore() async throws {
        let (staging, store) = try await makeStores()
        let real = try staging.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        let (path, descriptor) = try staging.makeTemporaryFile()
        close(descriptor)
        try Data("other bytes".utf8).write(to: URL(fileURLWithPath: path))
        let forged = StagedFile(path: path, hash: real.hash, size: 11)
        await #expect(throws: StorageError.self) { try await offThePool { try store.put(forged) } }
        #expect(try await offThePool { try !store.contains(real.hash) })
    }

    @Test func aStoreThatIsNotThereIsUnavailable() async throws {
        let bucket = S3Bucket(endpoint: "http://127.0.0.1:1", name: "none", region: "us-east-1", accessKeyID: "a", secretAccessKey: "b")
        let store = try S3BlobStore(client: S3Client(bucket: bucket), cacheFolder: directory.file("cache"))
        do {
            _ = try await offThePool { try store.contains(String(repeating: "a", count: 64)) }
            Issue.record("an endpoint with nothing behind it answered")
        } catch let error as StorageError {
            #expect(error.code == .unavailable)
        }
    }
}
