import Foundation

/// Where the bytes of uploads still coming in are kept, a piece per request that brought some:
/// in the data folder on one machine, in the bucket when servers share the library (any of them
/// may get an upload's next request). Which pieces make an upload, and how far it got, only the
/// database says, so a piece no row names is garbage.
///
/// Its calls block (a disk, a network); callers make them on an executor of theirs.
public protocol PartialUploadStore: Sendable {
    /// Keeps a staged file (consumed) as the bytes of `upload` from `offset` on, and names the
    /// piece for the database. Bytes kept past `offset` by a request the database never counted
    /// are the store's to drop. `durably: false` lets a store whose disk makes each write wait
    /// leave the piece (and those before it) in the machine's cache, which outlives the process
    /// but not the machine: the answer says so.
    func keep(_ staged: StagedPiece, upload: String, offset: Int, durably: Bool) throws(StorageError) -> KeptPiece

    /// Whether bytes a `keep` left in the cache of the machine that had `boot` (its
    /// `KeptPiece.cachedIn`) are still there: not once that machine has started again.
    func stillCached(_ boot: String) -> Bool

    /// The whole upload as a new file in `staging`, its pieces' bytes in order, `size` of them.
    func assemble(upload: String, pieces: [UploadPiece], size: Int, in staging: StagingArea) throws(StorageError) -> String

    /// Deletes whatever the store keeps of `upload` (pieces a lost request kept too).
    func remove(upload: String) throws(StorageError)

    /// The uploads the store holds something of, to collect those the database no longer names.
    func uploads() throws(StorageError) -> [String]
}

/// A piece of an upload in a staging folder, on its way to a store.
public struct StagedPiece: Sendable {
    public let path: String
    public let size: Int
    /// Its SHA-256 as lowercase hex when the caller needed it; a store that needs one makes it
    /// when it is not there. Most pieces need none: hashing each one cost a large upload a
    /// tenth of its time on one machine, where the whole file is hashed at its import anyway.
    public let sha256: String?

    /// A file of a staging folder taken as a piece, hashed when `hashing`.
    public init(adopting path: String, hashing: Bool) throws(StorageError) {
        self.path = path
        if hashing {
            (sha256, size) = try FileDigest.sha256(of: path)
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else { throw FileIO.error("stat") }
            (sha256, size) = (nil, Int(info.st_size))
        }
    }

    /// The piece as a staged file, named by its SHA-256: hashed now if the caller had no reason to.
    public func hashed() throws(StorageError) -> StagedFile {
        if let sha256 { return StagedFile(path: path, hash: sha256, size: size) }
        let (hash, size) = try FileDigest.sha256(of: path)
        return StagedFile(path: path, hash: hash, size: size)
    }
}

/// What `keep` did with a piece.
public struct KeptPiece: Sendable, Equatable {
    public let name: String
    /// nil when the piece and every one before it are on disk; else the boot of the machine
    /// whose cache holds what is not (see `PartialUploadStore.stillCached`).
    public let cachedIn: String?

    public init(name: String, cachedIn: String?) {
        self.name = name
        self.cachedIn = cachedIn
    }
}

/// A piece of an upload, as the database lists it.
public struct UploadPiece: Sendable, Equatable {
    public let offset: Int
    public let size: Int
    public let name: String

    public init(offset: Int, size: Int, name: String) {
        self.offset = offset
        self.size = size
        self.name = name
    }
}
