/// Where the bytes of uploads still coming in are kept, a piece per request that brought some:
/// in the data folder on one machine, in the bucket when servers share the library (any of them
/// may get an upload's next request). A piece is durable when `keep` returns; which pieces make
/// an upload, and how far it got, only the database says, so a piece no row names is garbage.
///
/// Its calls block (a disk, a network); callers make them on an executor of theirs.
public protocol PartialUploadStore: Sendable {
    /// Keeps a staged file (consumed) as the bytes of `upload` from `offset` on, durably, and
    /// names the piece for the database. Bytes kept past `offset` by a request the database
    /// never counted are the store's to drop.
    func keep(_ staged: StagedFile, upload: String, offset: Int) throws(StorageError) -> String

    /// The whole upload as a new file in `staging`, its pieces' bytes in order, `size` of them.
    func assemble(upload: String, pieces: [UploadPiece], size: Int, in staging: StagingArea) throws(StorageError) -> String

    /// Deletes whatever the store keeps of `upload` (pieces a lost request kept too).
    func remove(upload: String) throws(StorageError)

    /// The uploads the store holds something of, to collect those the database no longer names.
    func uploads() throws(StorageError) -> [String]
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
