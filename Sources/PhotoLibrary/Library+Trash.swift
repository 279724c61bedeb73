public import Foundation
import Storage

/// What a garbage collection removed.
public struct CollectionReport: Sendable, Equatable {
    public var blobsRemoved = 0
    public var derivativeFoldersRemoved = 0
    public var expiredCaptures = 0
    public var expiredUploads = 0
    public var expiredDownloads = 0
}

extension Library {
    /// Moves an asset to the trash; it leaves every source but keeps its original.
    public func trash(_ id: String) async throws(LibraryError) -> Asset {
        try await setTrashed(id, Self.timestamp())
    }

    public func restore(_ id: String) async throws(LibraryError) -> Asset {
        try await setTrashed(id, nil)
    }

    private func setTrashed(_ id: String, _ date: String?) async throws(LibraryError) -> Asset {
        _ = try await asset(id)
        try await write { connection throws(StorageError) in
            try connection.run("UPDATE assets SET trashed_at = ? WHERE id = ?", [date, id])
        }
        return try await asset(id)
    }

    /// Deletes an asset for good: its row, its album entries, its derivatives and its original;
    /// a Live Photo's still takes its movie with it.
    public func deletePermanently(_ id: String) async throws(LibraryError) {
        let asset = try await asset(id)
        if let movie = asset.livePhotoMovie { try await deletePermanently(movie) }
        let token = Self.newID()
        let removing = try await write { connection throws(StorageError) -> Bool in
            try connection.lock(Self.blobLock(asset.blobHash))
            try connection.run("DELETE FROM assets WHERE id = ?", [id])
            // Its renditions' outputs are then orphans, for collection.
            try connection.run("DELETE FROM rendition_jobs WHERE blob_hash = ?", [asset.blobHash])
            return try Self.claimRemoval(asset.blobHash, token, connection)
        }
        if removing { await remove(asset.blobHash, claimedAs: token) }
        await work.run { [derived] in derived.removeAll(for: asset.blobHash) }
        facts.forget(id)
    }

    /// Deletes every trashed asset for good; returns how many Recently Deleted showed.
    @discardableResult
    public func emptyTrash() async throws(LibraryError) -> Int {
        let ids = try await expiring(.recentlyDeleted, before: nil)
        for id in ids { try await deletePermanently(id) }
        return ids.count
    }

    /// The ids `Listing.expiring` names.
    func expiring(_ collection: AssetCollection, before cutoff: String?) async throws(LibraryError) -> [String] {
        let statement = Listing.expiring(collection, before: cutoff)
        return try await read { connection throws(StorageError) in
            try connection.query(statement.sql, statement.arguments).map { row throws(StorageError) in try row.text("id") }
        }
    }

    /// Removes what nothing refers to: blobs without a row (left by a crash between a blob's
    /// store and its row's commit, or by a removal that failed), derivatives of deleted
    /// originals, unsaved captures past their retention, and resumable uploads and downloads
    /// past their expiry. Blobs younger than `grace` are left, and so are claims on blobs
    /// (`storeBlob`) younger than it: an import in another process may be about to commit.
    @discardableResult
    public func collectGarbage(grace: TimeInterval = 3600, now: Date = Date()) async throws(LibraryError) -> CollectionReport {
        var report = CollectionReport()
        report.expiredCaptures = try await expireUnsavedCaptures(now: now)
        report.expiredUploads = try await expireUploads(now: now)
        report.expiredDownloads = try await expireDownloads(now: now)
        let cutoff = now.addingTimeInterval(-grace)
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
        for hash in orphans {
            // Checked again under the lock a store takes to claim the blob or commit its row.
            let token = Self.newID()
            let removing = try await write { connection throws(StorageError) -> Bool in
                try connection.lock(Self.blobLock(hash))
                return try Self.claimRemoval(hash, token, connection)
            }
            if removing, await remove(hash, claimedAs: token) { report.blobsRemoved += 1 }
        }
        let stale = await work.run { [derived] in
            derived.hashes().filter { !known.contains($0) }.map { hash in
                derived.removeAll(for: hash)
                return hash
            }
        }
        report.derivativeFoldersRemoved = stale.count
        return report
    }

    /// Deletes camera captures nobody saved within the retention period (one in the trash
    /// waits for the trash's own).
    private func expireUnsavedCaptures(now: Date) async throws(LibraryError) -> Int {
        let cutoff = Self.timestamp(now.addingTimeInterval(-options.unsavedRetention))
        let ids = try await expiring(.unsavedCaptures, before: cutoff)
        for id in ids { try await deletePermanently(id) }
        return ids.count
    }
}
