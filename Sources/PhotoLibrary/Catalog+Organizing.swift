import Foundation
import Storage

extension Catalog {
    /// Marks assets of `owner`'s as favourites, or not; all or none.
    public func setFavorite(_ ids: [String], _ favorite: Bool, owner: Owner) async throws(LibraryError) {
        try await requireAssets(ids, .inLibrary, owner: owner)
        try await write { connection throws(StorageError) in
            try connection.run("UPDATE assets SET favorite = ? WHERE id IN (\(Library.placeholders(ids.count)))", [favorite] + ids)
        }
    }

    /// Moves assets of `owner`'s to the trash (Recently Deleted), or takes them out of it; all or
    /// none. A Live Photo's movie goes and comes with its still, being part of it.
    public func setTrashed(_ ids: [String], _ trashed: Bool, owner: Owner) async throws(LibraryError) {
        try await requireAssets(ids, .any, owner: owner)
        let date: String? = trashed ? Library.timestamp() : nil
        try await write { connection throws(StorageError) in
            let list = Library.placeholders(ids.count)
            try connection.run("UPDATE assets SET trashed_at = ? WHERE id IN (\(list)) OR live_photo_of IN (\(list))", [date] + ids + ids)
        }
    }

    /// Takes everything of `owner`'s out of the trash at once (Recently Deleted's Recover All);
    /// returns the ids Recently Deleted showed, which is what an Undo moves back.
    public func restoreAll(owner: Owner) async throws(LibraryError) -> [String] {
        try await write { connection throws(StorageError) -> [String] in
            let ids = try Self.expiring(.recentlyDeleted, before: nil, owner: owner, connection: connection)
            for start in stride(from: 0, to: ids.count, by: Library.maxBatch) {
                let batch = Array(ids[start..<min(start + Library.maxBatch, ids.count)])
                let list = Library.placeholders(batch.count)
                try connection.run("UPDATE assets SET trashed_at = NULL WHERE id IN (\(list)) OR live_photo_of IN (\(list))", batch + batch)
            }
            return ids
        }
    }

    /// The ids `Listing.expiring` names.
    static func expiring(
        _ collection: AssetCollection, before cutoff: String?, owner: Owner?, connection: any SQLConnection
    ) throws(StorageError) -> [String] {
        let statement = Listing.expiring(collection, before: cutoff, owner: owner)
        return try connection.query(statement.sql, statement.arguments).map { row throws(StorageError) in try row.text("id") }
    }

    /// Which assets a change may name.
    enum Membership {
        /// In the library proper: not trashed, not an unsaved capture.
        case inLibrary
        /// Not trashed: the library's, and unsaved captures.
        case notTrashed
        /// Any asset, trashed or not.
        case any

        var condition: String {
            switch self {
            case .inLibrary: " AND trashed_at IS NULL AND NOT unsaved"
            case .notTrashed: " AND trashed_at IS NULL"
            case .any: ""
            }
        }
    }

    /// Refuses a batch unless every id names an asset of `owner`'s of `membership` (another
    /// person's is not there); a Live Photo's movie half is never named alone, being part of
    /// its still.
    func requireAssets(_ ids: [String], _ membership: Membership, owner: Owner) async throws(LibraryError) {
        try Library.requireBatch(ids)
        let sql =
            "SELECT count(*) AS count FROM assets WHERE id IN (\(Library.placeholders(ids.count))) AND owner_id = ? AND live_photo_of IS NULL"
            + membership.condition
        let found = try await read { connection throws(StorageError) in
            try connection.query(sql, ids + [owner.id]).first?.integer("count") ?? 0
        }
        guard found == ids.count else {
            throw LibraryError(
                .notFound, membership == .any ? "There is no asset with that id." : "An item is not in the library (or is in the trash).")
        }
    }

    /// Moves an asset of `owner`'s (nil: anyone's, for the operator) to the trash; it leaves every
    /// source but keeps its original.
    public func trash(_ id: String, owner: Owner?) async throws(LibraryError) -> Asset {
        try await setTrashed(id, Library.timestamp(), owner: owner)
    }

    public func restore(_ id: String, owner: Owner?) async throws(LibraryError) -> Asset {
        try await setTrashed(id, nil, owner: owner)
    }

    private func setTrashed(_ id: String, _ date: String?, owner: Owner?) async throws(LibraryError) -> Asset {
        _ = try await asset(id, owner: owner)
        try await write { connection throws(StorageError) in
            try connection.run("UPDATE assets SET trashed_at = ? WHERE id = ?", [date, id])
        }
        return try await asset(id, owner: owner)
    }
}
