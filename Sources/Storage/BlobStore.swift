public import Foundation

/// Where originals are kept, content-addressed by their SHA-256: a folder of files on one
/// machine, a bucket when several servers share the library. A blob, once stored, never
/// changes; the store never says which assets use one, the database does.
///
/// Its calls block (a disk, a network); callers make them on an executor of theirs.
public protocol BlobStore: Sendable {
    /// Stores a staged file under its hash. When this returns, the blob is durable; storing a
    /// hash that is there already keeps the first. The staged file is left as it was, for
    /// others still reading it (an import's decode runs beside its put): its stager discards it.
    func put(_ staged: StagedFile) throws(StorageError)

    func contains(_ hash: String) throws(StorageError) -> Bool

    /// A file on this machine with the blob's bytes, to decode or to send; `notFound` without
    /// such a blob.
    func localFile(_ hash: String) throws(StorageError) -> String

    /// Deletes a blob; the caller has made sure no row refers to it.
    func remove(_ hash: String) throws(StorageError)

    /// Every hash in the store, with when it was stored, for garbage collection.
    func allBlobs() throws(StorageError) -> [(hash: String, modified: Date)]
}

/// A file in a staging area, hashed and fsynced, not yet in a blob store.
public struct StagedFile: Sendable {
    public let path: String
    public let hash: String
    public let size: Int

    /// A file the caller hashed itself; `StagingArea` makes these for everything it stages.
    public init(path: String, hash: String, size: Int) {
        self.path = path
        self.hash = hash
        self.size = size
    }
}

/// A blob's name: a lowercase SHA-256 hex digest, and nothing else.
public enum BlobHash {
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
