import Executors
import Foundation
import Storage

/// What the parts of a library share: where it keeps its rows, its originals and its work files,
/// and its options. Each part owns the rest of its state and its own executor lane.
struct LibraryStores: Sendable {
    let folder: DataFolder
    let options: Library.Options
    let database: any SQLDatabase
    let blobs: any BlobStore
    /// This process's folder for work files, inside `folder.temporary`.
    let workFolder: WorkFolder
    let staging: StagingArea
    /// Calls to the blob store that put or delete a blob: in a cluster, a bucket's round trips,
    /// each waited for up to its deadline. A lane of their own, as wide as a phone's sync sends
    /// uploads at once, so that a stalled bucket refuses them all within its deadline instead of
    /// queueing them behind the decodes' few threads.
    let blobCalls: BlockingExecutor<Void>
}

/// One part of the library (`Catalog`, `Derivatives`, `MediaJobs`, `Ingest`, `Uploads`,
/// `Downloads`): its transactions run on the database's own threads, its errors are library errors.
protocol LibraryPart: AnyObject, Sendable {
    var stores: LibraryStores { get }
}

/// A part with blocking file work, which runs on its own lane: a cache lookup never waits
/// behind a decode of another part's.
protocol FileWorking: LibraryPart {
    var lane: BlockingExecutor<Void> { get }
}

extension LibraryPart {
    var options: Library.Options { stores.options }
    var database: any SQLDatabase { stores.database }
    var blobs: any BlobStore { stores.blobs }
    var staging: StagingArea { stores.staging }

    /// Storage work, its errors as library errors.
    @discardableResult
    func storage<T>(_ body: () async throws(StorageError) -> T) async throws(LibraryError) -> T {
        do {
            return try await body()
        } catch {
            throw LibraryError(error)
        }
    }

    /// A read transaction, its errors as library errors.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T) async throws(LibraryError) -> T {
        try await storage { () async throws(StorageError) in try await database.read(body) }
    }

    /// A write transaction, its errors as library errors. It never waits on the blob store or
    /// a file: a body that names a blob locks the blob's name first (`Library.blobLock`), and the
    /// blob itself is stored or removed outside any transaction (`storeBlob`).
    @discardableResult
    func write<T: Sendable>(_ commit: Commit = .durable, _ body: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T)
        async throws(LibraryError) -> T
    {
        try await storage { () async throws(StorageError) in try await database.write(commit, body) }
    }

    /// A call to the blob store on its own lane (`LibraryStores.blobCalls`).
    func blobCall<T: Sendable>(_ body: @escaping @Sendable () throws(StorageError) -> T) async throws(LibraryError) -> T {
        try await storage { () async throws(StorageError) in try await stores.blobCalls.run(body) }
    }

    /// Dies on the spot if a crash test asked for this step: no cleanup, as in a real crash.
    func reach(_ step: Library.ImportStep) {
        if options.crashPoint == step { _exit(70) }
    }
}

extension FileWorking {
    /// File work on this part's lane, its errors as library errors.
    func files<T: Sendable>(_ body: @escaping @Sendable () throws(StorageError) -> T) async throws(LibraryError) -> T {
        try await storage { () async throws(StorageError) in try await lane.run(body) }
    }

    /// Removes a staged file that goes nowhere, on this part's lane.
    func discard(_ staged: StagedFile) async {
        await lane.run { [staging] in staging.discard(staged) }
    }

    /// A file on this machine with the original's bytes (fetched from a bucket first).
    func original(of asset: Asset) async throws(LibraryError) -> String {
        try await files { [blobs] () throws(StorageError) in try blobs.localFile(asset.blobHash) }
    }
}
