import Foundation
import Storage

/// An album, how many assets it shows, and the one its cover shows.
public struct Album: Sendable, Equatable, Codable {
    public var id: String
    public var title: String
    public var count: Int
    /// The Camera Roll is built in: it cannot be renamed, deleted or shared.
    public var isBuiltIn: Bool
    /// The asset chosen as its cover, else its newest; nil when it is empty.
    public var coverAssetID: String?
    /// Whose album it is.
    public var owner: Owner
    /// What the person who asked may do with it: theirs, or shared with them.
    public var role: AlbumRole
}

/// What a person may do with an album: its owner everything; an editor adds their own items
/// and takes out what they added; a viewer sees it.
public enum AlbumRole: String, Sendable, Codable, CaseIterable {
    case owner, editor, viewer
}

extension Library {
    /// The built-in Camera Roll's id: the book's `savedPhotosAlbum`. Everyone calls their own so;
    /// its row is `cameraRollID(of:)`.
    public static let cameraRollID = "cameraRoll"

    /// The row of a person's Camera Roll: the first admin's is the one every library had before
    /// there were people, the others' are made when first used.
    static func cameraRollID(of owner: Owner) -> String {
        owner == .first ? cameraRollID : "\(cameraRollID)-\(owner.id)"
    }

    /// `cameraRollID(of:)` in SQL, for the owner that `owner` (SQL) names.
    static func cameraRollID(ofOwnerIn owner: String) -> String {
        "CASE WHEN \(owner) = \(Owner.first.id) THEN '\(cameraRollID)' ELSE '\(cameraRollID)-' || \(owner) END"
    }

    /// The album row an id a person names is: their own Camera Roll for `cameraRoll`.
    static func albumRow(_ id: String, of owner: Owner) -> String {
        id == cameraRollID ? cameraRollID(of: owner) : id
    }

    /// An asset into an album, unless it is there: the entry carries its asset's sort date, the
    /// order the album is listed in from its own index (`album_assets_in_order`).
    /// `addedBy`: who put it there, when it is not the album's owner's Camera Roll.
    /// True when it was not there before.
    @discardableResult
    static func addEntry(
        album: String, asset: String, at date: String, addedBy: Owner? = nil, connection: any SQLConnection
    ) throws(StorageError) -> Bool {
        try connection.run(
            """
            INSERT INTO album_assets (album_id, asset_id, added_at, sort_date, added_by)
                VALUES (?, ?, ?, (SELECT sort_date FROM assets WHERE id = ?), ?) ON CONFLICT DO NOTHING
            """, [album, asset, date, asset, addedBy?.id]) > 0
    }

    /// An album `al` that a person (`?`) owns, or one they are a member of (`?`): an index each.
    static let seenAlbum = "(al.owner_id = ? OR al.id IN (SELECT album_id FROM album_members WHERE member_id = ?))"

    /// Forgets an album's chosen cover once it is no longer among the album's entries.
    static func forgetCoverIfGone(_ album: String, connection: any SQLConnection) throws(StorageError) {
        try connection.run(
            """
            UPDATE albums SET cover_asset_id = NULL WHERE id = ? AND cover_asset_id IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM album_assets m WHERE m.album_id = albums.id AND m.asset_id = albums.cover_asset_id)
            """, [album])
    }

    /// Makes a person's Camera Roll row unless it is there: every library has the first admin's.
    static func makeCameraRoll(of owner: Owner, connection: any SQLConnection, at date: String) throws(StorageError) {
        guard owner != .first else { return }
        try connection.run(
            "INSERT INTO albums (id, title, builtin, created_at, owner_id) VALUES (?, 'Camera Roll', TRUE, ?, ?) ON CONFLICT DO NOTHING",
            [cameraRollID(of: owner), date, owner.id])
    }

    /// Saves an asset to its owner's Camera Roll, whose row (but the first admin's, which every
    /// library has) is made with the first item saved to it.
    /// True when it was not there before.
    @discardableResult
    static func addToCameraRoll(_ id: String, of owner: Owner, connection: any SQLConnection, at date: String) throws(StorageError)
        -> Bool
    {
        try makeCameraRoll(of: owner, connection: connection, at: date)
        let added = try addEntry(album: cameraRollID(of: owner), asset: id, at: date, connection: connection)
        try connection.run("UPDATE assets SET unsaved = FALSE WHERE id = ?", [id])
        return added
    }
}

extension Catalog {
    /// Saves an asset to its owner's Camera Roll (the book's `UIImageWriteToSavedPhotosAlbum`);
    /// an unsaved capture becomes part of the library.
    public func saveToCameraRoll(_ id: String, owner: Owner) async throws(LibraryError) -> Asset {
        _ = try await asset(id, owner: owner)
        let now = Library.timestamp()
        try await write { connection throws(StorageError) in try Library.addToCameraRoll(id, of: owner, connection: connection, at: now) }
        return try await asset(id, owner: owner)
    }

    /// Every album of `owner`'s with the number of assets it shows (trashed ones left out), the
    /// Camera Roll first, then by title.
    public func albums(owner: Owner) async throws(LibraryError) -> [Album] {
        let albums = try await read { connection throws(StorageError) in
            try connection.query(
                "\(Self.albumColumns(for: owner)) WHERE \(Library.seenAlbum) ORDER BY al.builtin DESC, al.title", [owner.id, owner.id]
            ).map { row throws(StorageError) in try Self.album(row, for: owner) }
        }
        return albums.contains(where: \.isBuiltIn) ? albums : [Self.emptyCameraRoll(of: owner)] + albums
    }

    /// An album `owner` may see: one of theirs (`cameraRoll`: their Camera Roll), or one shared
    /// with them; any other is not there.
    public func album(_ id: String, owner: Owner) async throws(LibraryError) -> Album {
        let found = try await read { connection throws(StorageError) in
            try connection.query(
                "\(Self.albumColumns(for: owner)) WHERE al.id = ? AND \(Library.seenAlbum)",
                [Library.albumRow(id, of: owner), owner.id, owner.id]
            ).first.map { row throws(StorageError) in try Self.album(row, for: owner) }
        }
        if let found { return found }
        guard id == Library.cameraRollID else { throw LibraryError(.notFound, "There is no album with that id.") }
        return Self.emptyCameraRoll(of: owner)
    }

    /// One of `owner`'s own albums, for what only its owner does (rename, cover, delete, share):
    /// one shared with them is refused, another's is not there.
    func ownAlbum(_ id: String, owner: Owner) async throws(LibraryError) -> Album {
        let album = try await album(id, owner: owner)
        guard album.role == .owner else { throw LibraryError(.notYours, "Only the album's owner may do that.") }
        return album
    }

    /// A person's Camera Roll before its row is made (by the first item saved to it): it is
    /// everyone's from the start, and reading it writes nothing.
    private static func emptyCameraRoll(of owner: Owner) -> Album {
        Album(id: Library.cameraRollID, title: "Camera Roll", count: 0, isBuiltIn: true, coverAssetID: nil, owner: owner, role: .owner)
    }

    /// Refuses an album that `owner` may not see, by its keys alone: what a listing of one asks
    /// first.
    func requireAlbum(_ id: String, owner: Owner) async throws(LibraryError) {
        guard id != Library.cameraRollID else { return }
        let found = try await read { connection throws(StorageError) in
            try !connection.query("SELECT 1 FROM albums al WHERE al.id = ? AND \(Library.seenAlbum)", [id, owner.id, owner.id]).isEmpty
        }
        guard found else { throw LibraryError(.notFound, "There is no album with that id.") }
    }

    public func createAlbum(title: String, owner: Owner) async throws(LibraryError) -> Album {
        let title = try Self.albumTitle(title)
        let id = Library.newID()
        let now = Library.timestamp()
        try await write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO albums (id, title, builtin, created_at, owner_id) VALUES (?, ?, FALSE, ?, ?)", [id, title, now, owner.id])
        }
        return try await album(id, owner: owner)
    }

    public func renameAlbum(_ id: String, to title: String, owner: Owner) async throws(LibraryError) -> Album {
        guard try await !ownAlbum(id, owner: owner).isBuiltIn else { throw LibraryError(.notAllowed, "The Camera Roll keeps its name.") }
        let title = try Self.albumTitle(title)
        try await write { connection throws(StorageError) in try connection.run("UPDATE albums SET title = ? WHERE id = ?", [title, id]) }
        return try await album(id, owner: owner)
    }

    /// Shows one of the album's assets as its cover; nil: its newest again.
    public func setAlbumCover(_ id: String, to asset: String?, owner: Owner) async throws(LibraryError) -> Album {
        let row = Library.albumRow(try await ownAlbum(id, owner: owner).id, of: owner)
        if let asset {
            let isMember = try await read { connection throws(StorageError) in
                try !connection.query("SELECT 1 FROM album_assets WHERE album_id = ? AND asset_id = ?", [row, asset]).isEmpty
            }
            guard isMember else { throw LibraryError(.invalidRequest, "coverAssetID: one of the album's items.") }
        }
        try await write { connection throws(StorageError) in
            try connection.run("UPDATE albums SET cover_asset_id = ? WHERE id = ?", [asset, row])
        }
        return try await album(id, owner: owner)
    }

    /// Deletes an album; its assets stay in the library.
    public func deleteAlbum(_ id: String, owner: Owner) async throws(LibraryError) {
        guard try await !ownAlbum(id, owner: owner).isBuiltIn else { throw LibraryError(.notAllowed, "The Camera Roll cannot be deleted.") }
        try await write { connection throws(StorageError) in
            try connection.run("DELETE FROM album_assets WHERE album_id = ?", [id])
            try connection.run("DELETE FROM albums WHERE id = ?", [id])
        }
    }

    /// Puts assets of `owner`'s in their album, or in one shared with them as its editor (those
    /// already there stay as they are); all or none, and never a trashed one or an unsaved
    /// capture. Adding to the Camera Roll saves a capture, as the book does.
    /// `added`: the ids that were not in the album before (what an Undo takes out).
    @discardableResult
    public func addToAlbum(_ id: String, assets ids: [String], owner: Owner) async throws(LibraryError) -> (
        album: Album, added: [String]
    ) {
        let album = try await album(id, owner: owner)
        guard album.role != .viewer else { throw LibraryError(.notYours, "Only the album's owner and its editors add to it.") }
        try await requireAssets(ids, album.isBuiltIn ? .notTrashed : .inLibrary, owner: owner)
        let now = Library.timestamp()
        let added = try await write { connection throws(StorageError) -> [String] in
            var added: [String] = []
            for asset in ids {
                let new =
                    album.isBuiltIn
                    ? try Library.addToCameraRoll(asset, of: owner, connection: connection, at: now)
                    : try Library.addEntry(album: id, asset: asset, at: now, addedBy: owner, connection: connection)
                if new { added.append(asset) }
            }
            return added
        }
        return (try await self.album(id, owner: owner), added)
    }

    /// Takes assets out of an album; they stay in the library. A cover taken out is no cover.
    /// Its owner takes out anything; an editor what they put in; a viewer nothing.
    public func removeFromAlbum(_ id: String, assets ids: [String], owner: Owner) async throws(LibraryError) -> Album {
        let album = try await album(id, owner: owner)
        guard album.role != .viewer else { throw LibraryError(.notYours, "Only the album's owner and its editors change it.") }
        let row = Library.albumRow(album.id, of: owner)
        try Library.requireBatch(ids)
        // An editor's own entries only: the owner's and other editors' stay.
        let (mine, arguments): (String, [any SQLBindable]) = album.role == .owner ? ("", []) : (" AND added_by = ?", [owner.id])
        try await write { connection throws(StorageError) in
            let list = Library.placeholders(ids.count)
            try connection.run("DELETE FROM album_assets WHERE album_id = ? AND asset_id IN (\(list))\(mine)", [row] + ids + arguments)
            try Library.forgetCoverIfGone(row, connection: connection)
        }
        return try await self.album(id, owner: owner)
    }

    /// An album's row with its count (the sum of its days, `day_counts`, not a walk through its
    /// entries) and cover: the chosen one while it is still shown, else the newest asset it shows.
    /// `role`: what `asker` is among its members, if one (their id is a number, written in).
    private static func albumColumns(for asker: Owner) -> String {
        """
        SELECT al.id, al.title, al.builtin, al.owner_id, am.role,
            (SELECT coalesce(sum(d.items), 0) FROM day_counts d
                WHERE d.owner_id = \(Owner.albums) AND d.listing = \(LibrarySchema.albumListing("al.id"))) AS count,
            coalesce(
                (SELECT c.id FROM assets c WHERE c.id = al.cover_asset_id AND c.trashed_at IS NULL),
                (SELECT n.id FROM album_assets nm JOIN assets n ON n.id = nm.asset_id
                    WHERE nm.album_id = al.id AND n.trashed_at IS NULL AND n.live_photo_of IS NULL
                    ORDER BY nm.sort_date DESC, nm.asset_id DESC LIMIT 1)) AS cover
        FROM albums al LEFT JOIN album_members am ON am.album_id = al.id AND am.member_id = \(asker.id)
        """
    }

    /// An album as `asker` names it: every Camera Roll is `cameraRoll` to its own.
    private static func album(_ row: Row, for asker: Owner) throws(StorageError) -> Album {
        let isBuiltIn = try row.flag("builtin")
        let owner = Owner(id: try row.integer("owner_id"))
        let role = owner == asker ? .owner : try row.optionalText("role").flatMap(AlbumRole.init(rawValue:)) ?? .viewer
        return Album(
            id: isBuiltIn ? Library.cameraRollID : try row.text("id"), title: try row.text("title"), count: try row.integer("count"),
            isBuiltIn: isBuiltIn, coverAssetID: try row.optionalText("cover"), owner: owner, role: role)
    }

    /// A title as people type it: trimmed, 1 to 100 characters, no control characters.
    static func albumTitle(_ text: String) throws(LibraryError) -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(title.count), !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LibraryError(.invalidRequest, "title: 1 to 100 characters, on one line.")
        }
        return title
    }
}
