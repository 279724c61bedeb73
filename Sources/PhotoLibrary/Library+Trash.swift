public import Foundation
import Storage

/// What a garbage collection removed.
public struct CollectionReport: Sendable, Equatable {
    public var blobsRemoved = 0
    public var derivativeFoldersRemoved = 0
    public var expiredCaptures = 0
}

extension Library {
    /// Moves an asset to the trash; it leaves every source but keeps its original.
    public func trash(_ id: String) throws(LibraryError) -> Asset {
        try setTrashed(id, Self.timestamp())
    }

    public func restore(_ id: String) throws(LibraryError) -> Asset {
        try setTrashed(id, nil)
    }

    private func setTrashed(_ id: String, _ date: String?) throws(LibraryError) -> Asset {
        _ = try asset(id)
        try storage { () throws(StorageError) in
            try database.write { connection throws(StorageError) in
                try connection.run("UPDATE assets SET trashed_at = ? WHERE id = ?", [date, id])
            }
        }
        return try asset(id)
    }

    /// Deletes an asset for good: its row, its album entries, its derivatives and its original.
    public func deletePermanently(_ id: String) throws(LibraryError) {
        let asset = try asset(id)
        try storage { () throws(StorageError) in
            try blobLock.withLock { _ throws(StorageError) in
                _ = try database.write { connection throws(StorageError) in
                    try connection.run("DELETE FROM assets WHERE id = ?", [id])
                }
                try blobs.remove(asset.blobHash)
            }
        }
        derived.removeAll(for: asset.blobHash)
        facts.withLock { $0[id] = nil }
    }

    /// Deletes every trashed asset for good; returns how many.
    @discardableResult
    public func emptyTrash() throws(LibraryError) -> Int {
        let ids = try storage { () throws(StorageError) in
            try database.read { connection throws(StorageError) in
                try connection.query("SELECT id FROM assets WHERE trashed_at IS NOT NULL").compactMap { $0.string("id") }
            }
        }
        for id in ids { try deletePermanently(id) }
        return ids.count
    }

    /// Removes what nothing refers to: blobs without a row (left by a crash between a blob's
    /// commit and its row's), derivatives of deleted originals, and unsaved captures past
    /// their retention. Blobs younger than `grace` are left, as an import in another process
    /// may be about to insert their row.
    @discardableResult
    public func collectGarbage(grace: TimeInterval = 3600, now: Date = Date()) throws(LibraryError) -> CollectionReport {
        var report = CollectionReport()
        report.expiredCaptures = try expireUnsavedCaptures(now: now)
        let known = try storage { () throws(StorageError) in
            try database.read { connection throws(StorageError) in
                Set(try connection.query("SELECT blob_hash FROM assets").compactMap { $0.string("blob_hash") })
            }
        }
        let cutoff = now.addingTimeInterval(-grace)
        for blob in blobs.allBlobs() where !known.contains(blob.hash) && blob.modified <= cutoff {
            try storage { () throws(StorageError) in
                try blobLock.withLock { _ throws(StorageError) in
                    let referenced = try database.read { connection throws(StorageError) in
                        !(try connection.query("SELECT 1 FROM assets WHERE blob_hash = ?", [blob.hash]).isEmpty)
                    }
                    if !referenced { try blobs.remove(blob.hash) }
                }
            }
            report.blobsRemoved += 1
        }
        for hash in derived.hashes() where !known.contains(hash) {
            derived.removeAll(for: hash)
            report.derivativeFoldersRemoved += 1
        }
        return report
    }

    /// Deletes camera captures nobody saved within the retention period.
    private func expireUnsavedCaptures(now: Date) throws(LibraryError) -> Int {
        let cutoff = Self.timestamp(now.addingTimeInterval(-options.unsavedRetention))
        let ids = try storage { () throws(StorageError) in
            try database.read { connection throws(StorageError) in
                try connection.query("SELECT id FROM assets WHERE unsaved = 1 AND imported_at < ?", [cutoff])
                    .compactMap { $0.string("id") }
            }
        }
        for id in ids { try deletePermanently(id) }
        return ids.count
    }
}
