public import Foundation
import Storage

/// Originals out of the library: deleted for good from the trash, expired unsaved captures, and
/// blobs nothing names (`collectOrphans`).
extension Ingest {
    /// Deletes an asset for good: its row, its album entries, and, unless another person's
    /// asset has the same bytes, its derivatives and its original; a Live Photo's still takes
    /// its movie with it.
    public func deletePermanently(_ id: String) async throws(LibraryError) {
        let asset = try await catalog.asset(id, owner: nil)
        if let movie = asset.livePhotoMovie { try await deletePermanently(movie) }
        let token = Library.newID()
        let (removing, kept) = try await write { connection throws(StorageError) -> (Bool, Bool) in
            try connection.lock(Library.blobLock(asset.blobHash))
            try connection.run("DELETE FROM assets WHERE id = ?", [id])
            // What is made of the bytes is theirs too.
            guard try connection.query("SELECT 1 FROM assets WHERE blob_hash = ? LIMIT 1", [asset.blobHash]).isEmpty else {
                return (false, true)
            }
            // Its renditions' outputs are then orphans, for collection.
            try connection.run("DELETE FROM rendition_jobs WHERE blob_hash = ?", [asset.blobHash])
            return (try Library.claimRemoval(asset.blobHash, token, connection), false)
        }
        if removing { await remove(asset.blobHash, claimedAs: token) }
        if !kept { await derivatives.removeAll(for: asset.blobHash) }
        catalog.facts.forget(id)
    }

    /// Deletes every trashed asset of `owner`'s for good; returns how many their Recently
    /// Deleted showed.
    @discardableResult
    public func emptyTrash(owner: Owner) async throws(LibraryError) -> Int {
        let ids = try await expiring(.recentlyDeleted, before: nil, owner: owner)
        for id in ids { try await deletePermanently(id) }
        return ids.count
    }

    func expiring(_ collection: AssetCollection, before cutoff: String?, owner: Owner? = nil) async throws(LibraryError) -> [String] {
        try await read { connection throws(StorageError) in
            try Catalog.expiring(collection, before: cutoff, owner: owner, connection: connection)
        }
    }

    /// Deletes assets of `owner`'s for good, from the trash only (Recently Deleted's Delete): an
    /// asset that is not there is refused, and nothing is deleted.
    public func deleteFromTrash(_ ids: [String], owner: Owner) async throws(LibraryError) {
        try await catalog.requireAssets(ids, .any, owner: owner)
        let trashed = try await read { connection throws(StorageError) in
            try connection.query(
                "SELECT count(*) AS count FROM assets WHERE trashed_at IS NOT NULL AND owner_id = ? AND id IN (\(Library.placeholders(ids.count)))",
                [owner.id] + ids
            ).first?.integer("count") ?? 0
        }
        guard trashed == Set(ids).count else {
            throw LibraryError(.notAllowed, "Only what is in Recently Deleted can be deleted for good; move it there first.")
        }
        for id in ids { try await deletePermanently(id) }
    }

    /// Deletes for good what has been in the trash longer than `trashRetention`; returns how many.
    public func purgeTrash(now: Date = Date()) async throws(LibraryError) -> Int {
        let cutoff = Library.timestamp(now.addingTimeInterval(-Library.trashRetention))
        let ids = try await expiring(.recentlyDeleted, before: cutoff)
        for id in ids { try await deletePermanently(id) }
        return ids.count
    }

    /// Deletes camera captures nobody saved within the retention period (one in the trash
    /// waits for the trash's own).
    func expireUnsavedCaptures(now: Date) async throws(LibraryError) -> Int {
        let cutoff = Library.timestamp(now.addingTimeInterval(-options.unsavedRetention))
        let ids = try await expiring(.unsavedCaptures, before: cutoff)
        for id in ids { try await deletePermanently(id) }
        return ids.count
    }

    /// Removes the blobs nothing names that were stored before `cutoff`, after dropping the
    /// claims older than it; how many went, and the hashes the rows name.
    func collectOrphans(before cutoff: Date) async throws(LibraryError) -> (removed: Int, known: Set<String>) {
        try await dropAbandonedClaims(before: cutoff)
        let (known, renditions) = try await read { connection throws(StorageError) in
            (
                Set(try connection.query("SELECT blob_hash FROM assets").map { row throws(StorageError) in try row.text("blob_hash") }),
                Set(
                    try connection.query("SELECT output_hash FROM rendition_jobs WHERE output_hash IS NOT NULL").map {
                        row throws(StorageError) in try row.text("output_hash")
                    })
            )
        }
        let orphans = try await files { [blobs] () throws(StorageError) in
            try blobs.allBlobs().filter { !known.contains($0.hash) && !renditions.contains($0.hash) && $0.modified <= cutoff }.map(\.hash)
        }
        var removed = 0
        for hash in orphans {
            // Checked again under the lock a store takes to claim the blob or commit its row.
            let token = Library.newID()
            let removing = try await write { connection throws(StorageError) -> Bool in
                try connection.lock(Library.blobLock(hash))
                return try Library.claimRemoval(hash, token, connection)
            }
            if removing, await remove(hash, claimedAs: token) { removed += 1 }
        }
        return (removed, known)
    }
}
