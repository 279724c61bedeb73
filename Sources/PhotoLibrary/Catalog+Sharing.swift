import Storage

/// A person an album is shared with, and what they may do with it.
public struct AlbumMember: Sendable, Equatable, Codable {
    public var member: Owner
    public var role: AlbumRole

    public init(member: Owner, role: AlbumRole) {
        (self.member, self.role) = (member, role)
    }
}

extension Catalog {
    /// Whether an album entry (`?`, an asset's id) is in an album a person sees
    /// (`Library.seenAlbum`): through the entries of that asset alone.
    package static let sharedEntry =
        "SELECT 1 FROM album_assets m JOIN albums al ON al.id = m.album_id WHERE m.asset_id = ? AND \(Library.seenAlbum) LIMIT 1"

    /// Who an album is shared with, its owner first: for anyone who may see it.
    public func members(of id: String, owner: Owner) async throws(LibraryError) -> [AlbumMember] {
        let album = try await album(id, owner: owner)
        let members = try await read { connection throws(StorageError) in
            try connection.query("SELECT member_id, role FROM album_members WHERE album_id = ? ORDER BY member_id", [album.id])
                .map { row throws(StorageError) in
                    AlbumMember(
                        member: Owner(id: try row.integer("member_id")), role: AlbumRole(rawValue: try row.text("role")) ?? .viewer)
                }
        }
        return [AlbumMember(member: album.owner, role: .owner)] + members
    }

    /// Shares one of `owner`'s albums with another person as a viewer or an editor, or changes
    /// their role; the Camera Roll is never shared.
    public func share(_ id: String, with member: Owner, as role: AlbumRole, owner: Owner) async throws(LibraryError) -> [AlbumMember] {
        let album = try await ownAlbum(id, owner: owner)
        guard !album.isBuiltIn else { throw LibraryError(.notAllowed, "The Camera Roll is not shared; share an album.") }
        guard role != .owner, member != owner else {
            throw LibraryError(.invalidRequest, "role: viewer or editor, for someone other than the album's owner.")
        }
        try await write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO album_members (album_id, member_id, role) VALUES (?, ?, ?)
                    ON CONFLICT (album_id, member_id) DO UPDATE SET role = excluded.role
                """, [album.id, member.id, role.rawValue])
        }
        return try await members(of: id, owner: owner)
    }

    /// Ends an album's sharing with a person: its owner ends anyone's, a member their own (they
    /// leave it). What they put in it leaves with them; it stays in their library.
    public func unshare(_ id: String, from member: Owner, owner: Owner) async throws(LibraryError) {
        let album = try await album(id, owner: owner)
        guard album.role == .owner || member == owner else {
            throw LibraryError(.notYours, "Only the album's owner takes others out of it.")
        }
        let removed = try await write { connection throws(StorageError) -> Int in
            let removed = try connection.run("DELETE FROM album_members WHERE album_id = ? AND member_id = ?", [album.id, member.id])
            guard removed > 0 else { return 0 }
            try connection.run("DELETE FROM album_assets WHERE album_id = ? AND added_by = ?", [album.id, member.id])
            try Library.forgetCoverIfGone(album.id, connection: connection)
            return removed
        }
        guard removed > 0 else { throw LibraryError(.notFound, "The album is not shared with that person.") }
    }

    /// One asset `owner` may see: their own, whatever its state, or, while it is not in its
    /// owner's trash, one in an album of theirs or shared with them (a Live Photo's movie by its
    /// still's entry), or one of the library a partner shares with them (not an unsaved
    /// capture). nil asks for anyone's, as `asset(_:owner:)`. What the media routes serve;
    /// changes ask `asset(_:owner:)`.
    public func visibleAsset(_ id: String, to owner: Owner?) async throws(LibraryError) -> Asset {
        let found = try await read { connection throws(StorageError) -> Asset? in
            guard let asset = try Catalog.asset(id, connection) else { return nil }
            guard let owner else { return asset }
            return try Catalog.isVisible(asset, to: owner, connection) ? asset : nil
        }
        guard let found else { throw LibraryError(.notFound, "There is no asset with that id.") }
        return found
    }

    /// Whether `owner` may see `asset` (`visibleAsset`), as a transaction sees the library.
    static func isVisible(_ asset: Asset, to owner: Owner, _ connection: any SQLConnection) throws(StorageError) -> Bool {
        guard owner != asset.owner else { return true }
        guard asset.trashedDate == nil else { return false }
        if try !connection.query(sharedEntry, [asset.livePhotoStill ?? asset.id, owner.id, owner.id]).isEmpty { return true }
        // A partner sees the library proper: not its unsaved captures.
        guard !asset.isUnsaved else { return false }
        return try shares(asset.owner, with: owner, connection)
    }
}
