public import Foundation
import Storage

extension Library {
    /// The most items one change takes: a selection of a whole year is a few thousand.
    public static let maxBatch = 10_000

    /// How long the trash keeps an item before it is deleted for good, as Photos' Recently Deleted.
    public static let trashRetention: TimeInterval = 30 * 24 * 3600

    /// Marks assets as favourites, or not; all or none.
    public func setFavorite(_ ids: [String], _ favorite: Bool) async throws(LibraryError) {
        try await requireAssets(ids, .inLibrary)
        try await write { connection throws(StorageError) in
            try connection.run("UPDATE assets SET favorite = ? WHERE id IN (\(Self.placeholders(ids.count)))", [favorite] + ids)
        }
    }

    /// Moves assets to the trash (Recently Deleted), or takes them out of it; all or none. A
    /// Live Photo's movie goes and comes with its still, being part of it.
    public func setTrashed(_ ids: [String], _ trashed: Bool) async throws(LibraryError) {
        try await requireAssets(ids, .any)
        let date: String? = trashed ? Self.timestamp() : nil
        try await write { connection throws(StorageError) in
            let list = Self.placeholders(ids.count)
            try connection.run("UPDATE assets SET trashed_at = ? WHERE id IN (\(list)) OR live_photo_of IN (\(list))", [date] + ids + ids)
        }
    }

    /// Deletes assets for good, from the trash only (Recently Deleted's Delete): an asset that is
    /// not there is refused, and nothing is deleted.
    public func deleteFromTrash(_ ids: [String]) async throws(LibraryError) {
        try Self.requireBatch(ids)
        let trashed = try await read { connection throws(StorageError) in
            try connection.query(
                "SELECT count(*) AS count FROM assets WHERE trashed_at IS NOT NULL AND id IN (\(Self.placeholders(ids.count)))", ids
            ).first?.integer("count") ?? 0
        }
        guard trashed == Set(ids).count else {
            throw LibraryError(.notAllowed, "Only what is in Recently Deleted can be deleted for good; move it there first.")
        }
        for id in ids { try await deletePermanently(id) }
    }

    /// Deletes for good what has been in the trash longer than `trashRetention`; returns how many.
    public func purgeTrash(now: Date = Date()) async throws(LibraryError) -> Int {
        let cutoff = Self.timestamp(now.addingTimeInterval(-Self.trashRetention))
        let ids = try await expiring(.recentlyDeleted, before: cutoff)
        for id in ids { try await deletePermanently(id) }
        return ids.count
    }

    /// Refuses a batch that is empty, too large or names an asset twice.
    static func requireBatch(_ ids: [String]) throws(LibraryError) {
        guard (1...maxBatch).contains(ids.count), Set(ids).count == ids.count else {
            throw LibraryError(.invalidRequest, "ids: 1 to \(maxBatch) different asset ids.")
        }
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

    /// Refuses a batch unless every id names an asset of `membership`; a Live Photo's movie half
    /// is never named alone, being part of its still.
    func requireAssets(_ ids: [String], _ membership: Membership) async throws(LibraryError) {
        try Self.requireBatch(ids)
        let sql =
            "SELECT count(*) AS count FROM assets WHERE id IN (\(Self.placeholders(ids.count))) AND live_photo_of IS NULL"
            + membership.condition
        let found = try await read { connection throws(StorageError) in try connection.query(sql, ids).first?.integer("count") ?? 0 }
        guard found == ids.count else {
            throw LibraryError(
                .notFound, membership == .any ? "There is no asset with that id." : "An item is not in the library (or is in the trash).")
        }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// A new row's id: 32 hex digits.
    static func newID() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
