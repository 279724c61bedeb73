import Foundation
import Storage
import TestSupport
import Testing

@Suite struct BlobStoreTests {
    let directory = TemporaryDirectory()

    func makeStore() throws -> BlobStore {
        try BlobStore(root: directory.file("blobs"), temporaryDirectory: directory.file("tmp"))
    }

    /// The corpus' CHECKS.tsv records each file's SHA-256 as computed by sha256sum.
    @Test(arguments: ["photos/exifsamples__Canon_40D.jpg", "videos/androidx-media__sample.mp4", "bad/photoprism__empty.jpg"])
    func hashesMatchSha256sum(file: String) throws {
        let store = try makeStore()
        let staged = try store.stage(copying: Corpus.path(file))
        #expect(staged.hash == Corpus.entries()[file]?.sha256)
        let path = try store.commit(staged)
        #expect(path.hasSuffix("/\(staged.hash.prefix(2))/\(staged.hash.dropFirst(2).prefix(2))/\(staged.hash)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
        #expect(!FileManager.default.fileExists(atPath: staged.path))
        #expect(store.contains(staged.hash))
    }

    @Test func theSameBytesAreStoredOnce() throws {
        let store = try makeStore()
        let first = try store.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        let second = try store.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        #expect(first.path != second.path)
        try store.commit(first)
        try store.commit(second)
        #expect(store.allBlobs().map(\.hash) == [first.hash])
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.temporaryDirectory).isEmpty)
    }

    @Test func adoptingAnUploadHashesItInPlace() throws {
        let store = try makeStore()
        let (path, fd) = try store.makeTemporaryFile()
        let bytes = Array("hello".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let staged = try store.stage(adopting: path)
        #expect(staged.hash == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect(staged.size == 5)
    }

    @Test func theSizeLimitStopsACopyAndLeavesNothing() throws {
        let store = try makeStore()
        do {
            _ = try store.stage(copying: Corpus.path("videos/androidx-media__sample.mp4"), maxBytes: 1000)
            Issue.record("an oversized file was staged")
        } catch {
            #expect(error.code == .tooLarge)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.temporaryDirectory).isEmpty)
    }

    @Test func remove() throws {
        let store = try makeStore()
        let staged = try store.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        try store.commit(staged)
        try store.remove(staged.hash)
        #expect(!store.contains(staged.hash))
    }

    @Test func missingSourceIsNotFound() throws {
        let store = try makeStore()
        #expect(throws: StorageError.self) { _ = try store.stage(copying: directory.file("nope")) }
    }
}
