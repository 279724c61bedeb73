import Foundation
import Storage
import TestSupport
import Testing

@Suite struct FileBlobStoreTests {
    let directory = TemporaryDirectory()

    func makeStores() throws -> (StagingArea, FileBlobStore) {
        (try StagingArea(folder: directory.file("tmp")), try FileBlobStore(root: directory.file("blobs")))
    }

    /// The corpus' CHECKS.tsv records each file's SHA-256 as computed by sha256sum.
    @Test(arguments: ["photos/exifsamples__Canon_40D.jpg", "videos/androidx-media__sample.mp4", "bad/photoprism__empty.jpg"])
    func hashesMatchSha256sum(file: String) throws {
        let (staging, store) = try makeStores()
        let staged = try staging.stage(copying: Corpus.path(file))
        #expect(staged.hash == Corpus.entries()[file]?.sha256)
        try store.put(staged)
        let path = try store.localFile(staged.hash)
        #expect(path.hasSuffix("/\(staged.hash.prefix(2))/\(staged.hash.dropFirst(2).prefix(2))/\(staged.hash)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
        #expect(FileManager.default.fileExists(atPath: staged.path), "the staged file is its stager's to discard")
        staging.discard(staged)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))))
        #expect(store.contains(staged.hash))
    }

    @Test func theSameBytesAreStoredOnce() throws {
        let (staging, store) = try makeStores()
        let first = try staging.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        let second = try staging.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        #expect(first.path != second.path)
        try store.put(first)
        try store.put(second)
        #expect(store.allBlobs().map(\.hash) == [first.hash])
        let stored = try store.localFile(first.hash)
        #expect(try inode(stored) == inode(first.path), "the first stays the blob")
        #expect(try inode(stored) != inode(second.path))
    }

    @Test func adoptingAnUploadHashesItInPlace() throws {
        let (staging, _) = try makeStores()
        let (path, fd) = try staging.makeTemporaryFile()
        let bytes = Array("hello".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let staged = try staging.stage(adopting: path)
        #expect(staged.hash == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect(staged.size == 5)
    }

    /// A hash the server made while the body streamed in is taken, not made again; the size is
    /// the file's.
    @Test func adoptingWithAKnownHashDoesNotReadTheFile() throws {
        let (staging, _) = try makeStores()
        let (path, fd) = try staging.makeTemporaryFile()
        _ = Array("hello".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let given = String(repeating: "ab", count: 32)
        let staged = try staging.stage(adopting: path, sha256: given)
        #expect(staged.hash == given)
        #expect(staged.size == 5)
    }

    @Test func theSizeLimitStopsACopyAndLeavesNothing() throws {
        let (staging, _) = try makeStores()
        do {
            _ = try staging.stage(copying: Corpus.path("videos/androidx-media__sample.mp4"), maxBytes: 1000)
            Issue.record("an oversized file was staged")
        } catch {
            #expect(error.code == .tooLarge)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.folder).isEmpty)
    }

    @Test func aRemovedBlobIsNotFound() throws {
        let (staging, store) = try makeStores()
        let staged = try staging.stage(copying: Corpus.path("photos/exifsamples__Canon_40D.jpg"))
        try store.put(staged)
        try store.remove(staged.hash)
        #expect(!store.contains(staged.hash))
        #expect(throws: StorageError.self) { _ = try store.localFile(staged.hash) }
    }

    @Test func missingSourceIsNotFound() throws {
        let (staging, _) = try makeStores()
        #expect(throws: StorageError.self) { _ = try staging.stage(copying: directory.file("nope")) }
    }

    private func inode(_ path: String) throws -> UInt64 {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
    }
}
