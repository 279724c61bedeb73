import Storage

/// What a person's library became when they left (`Catalog.handOver`).
public struct HandOver: Sendable, Equatable, Encodable {
    /// Their items now in the receiver's Recently Deleted.
    public var moved: Int
    /// Their items whose bytes the receiver held already: the receiver's own item stands for
    /// each, in the albums it was in.
    public var merged: Int
    /// Their albums, now the receiver's, each titled with where it came from.
    public var albums: Int

    public init(moved: Int, merged: Int, albums: Int) {
        (self.moved, self.merged, self.albums) = (moved, merged, albums)
    }
}

extension Catalog {
    /// Gives everything of `departing`'s to `receiver`, in one transaction, so that removing a
    /// person never silently loses a photo: their items go to the receiver's Recently Deleted
    /// (captures nobody saved among them, to be kept or let go), their albums become the
    /// receiver's titled "Title (label)", and their Camera Roll's items join the receiver's
    /// Camera Roll, where a restore brings them back. An item whose bytes the receiver already
    /// holds is one asset per person's bytes (`assets_by_blob`), so the departing row goes and the
    /// receiver's stands for it, in its albums; a Live Photo's movie whose still went so stands
    /// alone. They leave the albums others shared with them, and partner sharing with them ends
    /// both ways. Unfinished uploads, downloads and picker sessions are theirs alone and end.
    public func handOver(from departing: Owner, to receiver: Owner, label: String) async throws(LibraryError) -> HandOver {
        guard departing != receiver else { throw LibraryError(.notAllowed, "A library cannot be handed to its own owner.") }
        let (from, to) = (departing.id, receiver.id)
        let now = Library.timestamp()
        let (departingRoll, receivingRoll) = (Library.cameraRollID(of: departing), Library.cameraRollID(of: receiver))
        let (result, ids) = try await write { connection throws(StorageError) -> (HandOver, [String]) in
            let ids = try connection.query("SELECT id FROM assets WHERE owner_id = ?", [from]).map { row throws(StorageError) in
                try row.text("id")
            }
            let twin = "SELECT 1 FROM assets t WHERE t.blob_hash = d.blob_hash AND t.owner_id = ?"
            try connection.run(
                """
                INSERT INTO album_assets (album_id, asset_id, added_at, sort_date)
                    SELECT m.album_id, t.id, m.added_at, t.sort_date FROM album_assets m
                    JOIN assets d ON d.id = m.asset_id JOIN assets t ON t.blob_hash = d.blob_hash AND t.owner_id = ?
                    WHERE d.owner_id = ? AND m.album_id IN (SELECT id FROM albums WHERE owner_id = ?) ON CONFLICT DO NOTHING
                """, [to, from, from])
            try connection.run(
                "UPDATE assets SET live_photo_of = NULL WHERE owner_id = ? AND live_photo_of IN (SELECT d.id FROM assets d WHERE d.owner_id = ? AND EXISTS (\(twin)))",
                [from, from, to])
            let merged =
                try connection.query(
                    "SELECT count(*) AS count FROM assets d WHERE d.owner_id = ? AND d.live_photo_of IS NULL AND EXISTS (\(twin))",
                    [from, to]
                ).first?.integer("count") ?? 0
            try connection.run(
                "DELETE FROM assets WHERE id IN (SELECT d.id FROM assets d WHERE d.owner_id = ? AND EXISTS (\(twin)))", [from, to])
            try Library.makeCameraRoll(of: receiver, connection: connection, at: now)
            try connection.run(
                """
                INSERT INTO album_assets (album_id, asset_id, added_at, sort_date)
                    SELECT ?, asset_id, added_at, sort_date FROM album_assets WHERE album_id = ? ON CONFLICT DO NOTHING
                """, [receivingRoll, departingRoll])
            try connection.run("DELETE FROM albums WHERE id = ?", [departingRoll])
            // They leave the albums shared with them, taking what they put there, as a member
            // who leaves does; theirs stay shared with the others, and the receiver, owning
            // them now, is no member of them.
            try connection.run(
                "DELETE FROM album_assets WHERE added_by = ? AND album_id IN (SELECT album_id FROM album_members WHERE member_id = ?)",
                [from, from])
            try connection.run("DELETE FROM album_members WHERE member_id = ?", [from])
            try connection.run("DELETE FROM partners WHERE owner_id = ? OR partner_id = ?", [from, from])
            try connection.run(
                "DELETE FROM album_members WHERE member_id = ? AND album_id IN (SELECT id FROM albums WHERE owner_id = ?)", [to, from])
            try connection.run("UPDATE album_assets SET added_by = ? WHERE added_by = ?", [to, from])
            let albums = try connection.run(
                "UPDATE albums SET owner_id = ?, title = title || ? WHERE owner_id = ?", [to, " (\(label))", from])
            // Items as Recently Deleted shows them: a Live Photo's movie is part of its still.
            let moved =
                try connection.query("SELECT count(*) AS count FROM assets WHERE owner_id = ? AND live_photo_of IS NULL", [from])
                .first?.integer("count") ?? 0
            try connection.run(
                "UPDATE assets SET owner_id = ?, unsaved = FALSE, trashed_at = COALESCE(trashed_at, ?) WHERE owner_id = ?", [to, now, from])
            // Their links stop opening: the items were shown on their word, not the receiver's.
            for table in ["uploads", "downloads", "picker_sessions", "share_links"] {
                try connection.run("DELETE FROM \(table) WHERE owner_id = ?", [from])
            }
            return (HandOver(moved: moved, merged: merged, albums: albums), ids)
        }
        // An asset's owner is among the facts kept in memory: these are the receiver's now.
        for id in ids { facts.forget(id) }
        return result
    }
}
