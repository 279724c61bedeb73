import Foundation
import S3
import Storage
import TestSupport
import Testing

/// Originals in a bucket of a real radosgw (Ceph 16), through libcurl and our SigV4 signer.
@Suite struct S3BlobStoreTests {
    let directory = TemporaryDirectory("cameraroll-s3")

    func makeStores(partSize: Int = S3Client.defaultPartSize) async throws -> (StagingArea, S3BlobStore) {
        let gateway = try await ThrowawayCeph.start()
        let bucket = S3Bucket(
            endpoint: gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1", accessKeyID: gateway.accessKeyID,
            secretAccessKey: gateway.secretAccessKey)
        let client = S3Client(bucket: bucket)
        try await offThePool { try client.createBucket() }
        return (
            try StagingArea(folder: directory.file("tmp")),
            try S3BlobStore(client: client, cacheFolder: directory.file("cache"), partSize: partSize)
        )
    }

    @Test func aBlobGoesInComesBackExactlyAndGoes() async throws {
        let (staging, store) = try await makeStores()
        let file = Corpus.path("videos/androidx-media__sample.mp4")
        let staged = try staging.stage(copying: file)
        let hash = staged.hash
        try await offThePool { try store.put(staged) }
        #expect(FileManager.default.fileExists(atPath: staged.path), "the staged copy is its stager's to discard")
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

    /// An original past the part size goes up in parts (here 5 MiB, S3's smallest, so 12 MiB
    /// is three), each checked by the store, and comes back byte for byte.
    @Test func aLargeOriginalGoesUpInPartsAndComesBackExactly() async throws {
        let (staging, store) = try await makeStores(partSize: 5 << 20)
        var generator = SystemRandomNumberGenerator()
        var words = [UInt64](repeating: 0, count: (12 << 20) / 8)
        for index in words.indices { words[index] = generator.next() }
        let bytes = words.withUnsafeBytes { Data($0) }
        let file = directory.file("large.bin")
        try bytes.write(to: URL(fileURLWithPath: file))
        let staged = try staging.stage(copying: file)
        let hash = staged.hash
        try await offThePool { try store.put(staged) }
        let local = try await offThePool { try store.localFile(hash) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == bytes)
    }

    /// In parts too, what lands is what was staged: a file that is not its hash sends nothing.
    @Test func aLargeFileThatIsNotItsHashIsRefusedBeforeAPartIsSent() async throws {
        let (staging, store) = try await makeStores(partSize: 5 << 20)
        let (path, descriptor) = try staging.makeTemporaryFile()
        close(descriptor)
        try Data(count: 6 << 20).write(to: URL(fileURLWithPath: path))
        let forged = StagedFile(path: path, hash: String(repeating: "0", count: 64), size: 6 << 20)
        do {
            try await offThePool { try store.put(forged) }
            Issue.record("a forged file was stored")
        } catch let error as StorageError {
            #expect(error.message == "A file changed after it was staged.", "refused on the way in parts")
        }
        #expect(try await offThePool { try store.allBlobs().isEmpty })
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
