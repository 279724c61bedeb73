public import Foundation
public import Storage

/// Originals in an S3 bucket, under `blobs/aa/bb/<sha256>`, which servers on several machines
/// share. Each upload names its SHA-256, so the store refuses bytes that are not the blob's; each
/// download is hashed again before it is used. Decoders and the server need a file on this
/// machine, so a blob read is kept in a local folder (`cache`), named by its hash, under
/// `cacheLimit` bytes (see `LocalCopies`).
public struct S3BlobStore: BlobStore {
    public let client: S3Client
    private let cache: StagingArea
    private let copies: LocalCopies

    /// Originals larger than this go up in parts of this size (see `S3Client.put(_:staged:partSize:)`).
    private let partSize: Int

    public static let defaultCacheLimit = 8 << 30

    public init(
        client: S3Client, cacheFolder: String, cacheLimit: Int = defaultCacheLimit, partSize: Int = S3Client.defaultPartSize
    ) throws(StorageError) {
        self.client = client
        self.partSize = max(partSize, S3Client.smallestPart)
        cache = try StagingArea(folder: cacheFolder)
        copies = LocalCopies(folder: cacheFolder, limit: cacheLimit, isCopy: BlobHash.isValid)
    }

    static func key(_ hash: String) -> String {
        precondition(BlobHash.isValid(hash), "not a SHA-256 hex digest")
        return "blobs/\(hash.prefix(2))/\(hash.dropFirst(2).prefix(2))/\(hash)"
    }

    /// A blob there already is the same bytes, not sent again.
    public func put(_ staged: StagedFile) throws(StorageError) {
        if try !client.exists(Self.key(staged.hash)) {
            try client.put(Self.key(staged.hash), staged: staged, partSize: partSize)
        }
    }

    public func contains(_ hash: String) throws(StorageError) -> Bool {
        guard BlobHash.isValid(hash) else { return false }
        return try client.exists(Self.key(hash))
    }

    public func localFile(_ hash: String) throws(StorageError) -> String {
        let path = "\(cache.folder)/\(hash)"
        guard BlobHash.isValid(hash) else { throw StorageError(.notFound, "An original is missing from the library.") }
        if FileManager.default.fileExists(atPath: path) {
            copies.used(hash)
            return path
        }
        let (part, descriptor) = try cache.makeTemporaryFile(suffix: ".part")
        close(descriptor)
        let size: Int
        do throws(StorageError) {
            try client.get(Self.key(hash), to: part)
            let staged = try cache.stage(adopting: part)
            guard staged.hash == hash else {
                throw StorageError(.unavailable, "The object store gave other bytes than the original's.")
            }
            size = staged.size
        } catch {
            unlink(part)
            throw error
        }
        // Downloads of the same blob at once each land whole: the rename is atomic, the bytes the same.
        guard rename(part, path) == 0 else { throw StorageError(.io, "A file could not be read or written.", detail: "rename") }
        copies.added(hash, size: size)
        return path
    }

    public func remove(_ hash: String) throws(StorageError) {
        try client.delete(Self.key(hash))
        unlink("\(cache.folder)/\(hash)")
        copies.removed(hash)
    }

    public func allBlobs() throws(StorageError) -> [(hash: String, modified: Date)] {
        try client.list(prefix: "blobs/").compactMap { object in
            let name = String(object.key.split(separator: "/").last ?? "")
            return BlobHash.isValid(name) ? (name, object.modified) : nil
        }
    }
}
