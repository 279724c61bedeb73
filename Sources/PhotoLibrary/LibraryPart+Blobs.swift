import Foundation
import Storage

/// How originals and renditions go into the blob store and out of it with no transaction open
/// while the store works: an S3 upload of 4 GiB held one of the cluster's writer connections
/// for its whole length when the put ran inside the row's transaction.
///
/// A row in `blob_claims` says that a blob is being stored or being removed. Each claim is taken
/// in a short transaction under the blob's lock (`blobLock`), which serialises it against the
/// other kind: a removal is not claimed while a store is under way or a row or a rendition
/// names the blob, and a store waits for a removal under way to end before it writes bytes the
/// removal would delete. A process that dies leaves its claim behind: a removal's lapses after
/// `removalLease`, and collection drops a store's after its grace, its blob then an orphan.
extension LibraryPart {
    /// Stores `staged` in the blob store and then runs `commit` (the row that names the blob) in
    /// a short write transaction under the blob's lock. A failure after the store leaves the blob
    /// an orphan for collection; the caller discards `staged` if this throws.
    func storeBlob<T: Sendable>(
        _ staged: StagedFile, commit: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T
    ) async throws(LibraryError) -> T {
        let token = Library.newID()
        _ = try await claimStore(staged.hash, token) { _ throws(StorageError) -> Never? in nil }
        return try await storeClaimed(staged, token, commit: commit)
    }

    /// `storeBlob` for a store `token` has claimed (`claimStore`): the claim is released
    /// whatever the outcome, and `staged` discarded once it is stored.
    func storeClaimed<T: Sendable>(
        _ staged: StagedFile, _ token: String, commit: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T
    ) async throws(LibraryError) -> T {
        do {
            try await blobCall { [blobs, staging] () throws(StorageError) in
                try blobs.put(staged)
                staging.discard(staged)
            }
        } catch {
            await releaseClaim(token)
            throw error
        }
        return try await commitClaimed(staged.hash, token, commit: commit)
    }

    /// Runs `commit` (the row that names a blob just stored) in a short write transaction under
    /// the blob's lock, and ends the store `token` claimed, whatever the outcome.
    func commitClaimed<T: Sendable>(
        _ hash: String, _ token: String, commit: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T
    ) async throws(LibraryError) -> T {
        reach(.afterBlobCommit)
        do {
            return try await write { connection throws(StorageError) -> T in
                try connection.lock(Library.blobLock(hash))
                let result = try commit(connection)
                try Library.releaseClaim(token, connection)
                return result
            }
        } catch {
            await releaseClaim(token)
            throw error
        }
    }

    /// Claims the store of `hash` as `token`, after any removal of it under way, unless
    /// `instead`, asked first in the same transaction under the blob's lock, finds the store
    /// needless (the bytes are an asset already): then its answer, and no claim.
    func claimStore<T: Sendable>(
        _ hash: String, _ token: String, unless instead: @escaping @Sendable (any SQLConnection) throws(StorageError) -> T?
    ) async throws(LibraryError) -> T? {
        while true {
            let now = Date().timeIntervalSince1970
            let claim = try await write { connection throws(StorageError) -> StoreClaim<T> in
                try connection.lock(Library.blobLock(hash))
                if let known = try instead(connection) { return .known(known) }
                try connection.run(
                    "DELETE FROM blob_claims WHERE blob_hash = ? AND purpose = 'remove' AND claimed_at < ?",
                    [hash, now - Library.removalLease])
                guard try connection.query("SELECT 1 FROM blob_claims WHERE blob_hash = ? AND purpose = 'remove'", [hash]).isEmpty else {
                    return .removing
                }
                try connection.run(
                    "INSERT INTO blob_claims (token, blob_hash, purpose, claimed_at) VALUES (?, ?, 'store', ?)", [token, hash, now])
                return .claimed
            }
            switch claim {
            case .known(let known): return known
            case .claimed: return nil
            case .removing: break
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                throw LibraryError(.storageUnavailable, "The original was being removed; try again.")
            }
        }
    }

    /// Takes back a blob stored under the claim `token` whose row will never come (an import
    /// refused by its decode, which ran beside the put): removed unless something else names
    /// it by now, the claim ended in the same transaction. If that transaction fails, the claim
    /// lapses and the blob is an orphan, both for collection.
    func unstore(_ hash: String, claimedAs token: String) async {
        let removal = Library.newID()
        do {
            let removing = try await write { connection throws(StorageError) -> Bool in
                try connection.lock(Library.blobLock(hash))
                try Library.releaseClaim(token, connection)
                return try Library.claimRemoval(hash, removal, connection)
            }
            if removing { await remove(hash, claimedAs: removal) }
        } catch {
            await releaseClaim(token)
        }
    }

    /// Gives up a store claimed and never made; a claim that cannot be released lapses at
    /// collection.
    func releaseClaim(_ token: String) async {
        try? await write { connection throws(StorageError) in try Library.releaseClaim(token, connection) }
    }

    /// Removes a blob whose removal `token` claimed, then the claim. A removal that fails leaves
    /// the blob to collection, which finds it named by nothing: the rows are gone already.
    @discardableResult
    func remove(_ hash: String, claimedAs token: String) async -> Bool {
        var removed = true
        do {
            try await blobCall { [blobs] () throws(StorageError) in try blobs.remove(hash) }
        } catch {
            options.log("removing blob \(hash) failed, left for collection: \(error)")
            removed = false
        }
        await releaseClaim(token)
        return removed
    }

    /// Drops the claims of processes that died before they finished, `grace` after they began.
    func dropAbandonedClaims(before cutoff: Date) async throws(LibraryError) {
        try await write { connection throws(StorageError) in
            try connection.run("DELETE FROM blob_claims WHERE claimed_at < ?", [cutoff.timeIntervalSince1970])
        }
    }
}

extension Library {
    /// How long a removal may take before a store waiting on it takes it for abandoned: one
    /// delete in the blob store, which answers or times out well within it.
    static let removalLease: TimeInterval = 120

    /// Inside a transaction holding the blob's lock: claims the removal of `hash` unless an
    /// asset, a rendition or a store under way (or another removal) names it. True when the
    /// caller is to remove the blob (`remove(_:claimedAs:)`) once this transaction commits.
    static func claimRemoval(_ hash: String, _ token: String, _ connection: any SQLConnection) throws(StorageError) -> Bool {
        guard try connection.query(namesOfBlob, [hash, hash, hash]).isEmpty else { return false }
        try connection.run(
            "INSERT INTO blob_claims (token, blob_hash, purpose, claimed_at) VALUES (?, ?, 'remove', ?)",
            [token, hash, Date().timeIntervalSince1970])
        return true
    }

    /// What names a blob (its hash three times): an asset, a finished rendition, a claim. Each
    /// part is one lookup in an index, also in a library of a million (`ClaimPlanTests`).
    package static let namesOfBlob = """
        SELECT 1 FROM assets WHERE blob_hash = ?
        UNION ALL SELECT 1 FROM rendition_jobs WHERE output_hash = ?
        UNION ALL SELECT 1 FROM blob_claims WHERE blob_hash = ?
        """

    static func releaseClaim(_ token: String, _ connection: any SQLConnection) throws(StorageError) {
        try connection.run("DELETE FROM blob_claims WHERE token = ?", [token])
    }

    /// The name a transaction locks to claim a blob's store or removal, or to commit its row.
    static func blobLock(_ hash: String) -> String { "blob \(hash)" }
}

/// What one try at claiming a blob's store found.
private enum StoreClaim<Known: Sendable>: Sendable {
    /// The store is needless: the answer of `claimStore`'s `instead`, and no claim.
    case known(Known)
    case claimed
    /// A removal of the blob is under way: try again once it has ended.
    case removing
}
