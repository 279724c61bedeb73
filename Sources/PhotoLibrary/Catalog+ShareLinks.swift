public import Foundation
import Storage

extension Catalog {
    /// Makes a link to one of `owner`'s albums (not the Camera Roll) or to items of their
    /// library, named `id` (the server's, which its token carries).
    public func createLink(_ new: NewShareLink, id: String, owner: Owner, now: Date = Date()) async throws(LibraryError) -> ShareLink {
        if let lifetime = new.lifetime, !(1...NewShareLink.longestLifetime).contains(lifetime) {
            throw LibraryError(
                .invalidRequest, "expiresIn: seconds from now, at most ten years; leave it out for a link that never expires.")
        }
        let expires = new.lifetime.map { Int(now.timeIntervalSince1970) + $0 }
        let created = Library.timestamp(now)
        let content: ShareLink.Content
        switch new.content {
        case .album(let albumID):
            let album = try await ownAlbum(albumID, owner: owner)
            guard !album.isBuiltIn else { throw LibraryError(.notAllowed, "The Camera Roll is not shared; share an album.") }
            content = .album(album.id)
        case .assets(let ids):
            guard !new.options.allowUpload else {
                throw LibraryError(.invalidRequest, "allowUpload: guests add to an album; make a link to an album for that.")
            }
            try await requireAssets(ids, .inLibrary, owner: owner)
            content = .assets(count: ids.count)
        }
        let link = ShareLink(
            id: id, owner: owner, content: content, created: created, expires: expires, password: new.password, options: new.options)
        try await write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO share_links (id, owner_id, album_id, created_at, expires, password, remove_location, allow_download, allow_upload)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    id, owner.id, link.albumID, created, expires, new.password, new.options.removeLocation, new.options.allowDownload,
                    new.options.allowUpload,
                ])
            if case .assets(let ids) = new.content {
                for (position, asset) in ids.enumerated() {
                    try connection.run(
                        "INSERT INTO share_link_assets (link_id, asset_id, position) VALUES (?, ?, ?)", [id, asset, position])
                }
            }
        }
        return link
    }

    /// `owner`'s links, newest first; expired ones too, until they are revoked.
    public func links(owner: Owner) async throws(LibraryError) -> [ShareLink] {
        try await read { connection throws(StorageError) in
            try connection.query("\(Self.linkColumns) WHERE l.owner_id = ? ORDER BY l.created_at DESC, l.id", [owner.id])
                .map(Self.link)
        }
    }

    /// Anyone's link by its id, for a guest whose token named it; expired ones too (the guest
    /// is told so).
    public func link(_ id: String) async throws(LibraryError) -> ShareLink {
        let found = try await read { connection throws(StorageError) in
            try connection.query("\(Self.linkColumns) WHERE l.id = ?", [id]).first.map(Self.link)
        }
        guard let found else { throw LibraryError(.notFound, "This link was revoked, or never was.") }
        return found
    }

    /// Revokes one of `owner`'s links: it stops opening at once, on every server.
    public func revokeLink(_ id: String, owner: Owner) async throws(LibraryError) {
        let removed = try await write { connection throws(StorageError) in
            try connection.run("DELETE FROM share_links WHERE id = ? AND owner_id = ?", [id, owner.id])
        }
        guard removed > 0 else { throw LibraryError(.notFound, "There is no link with that id.") }
    }

    /// A page of what a link shows, in its order: an album's as the album lists it, chosen
    /// items in the order chosen; what its owner has put in the trash since is not shown.
    public func linkedAssets(_ link: ShareLink, cursor: String?, limit: Int) async throws(LibraryError) -> AssetPage {
        guard (1...AssetQuery.maxLimit).contains(limit) else {
            throw LibraryError(.invalidRequest, "limit: must be between 1 and \(AssetQuery.maxLimit).")
        }
        if let album = link.albumID {
            var query = AssetQuery(limit: limit, cursor: cursor)
            query.collection = .album(album)
            return try await assets(query, owner: link.owner)
        }
        let after =
            try cursor.map { text throws(LibraryError) in
                guard let position = Int(text), position >= 0 else {
                    throw LibraryError(.invalidRequest, "cursor: not a cursor this server made.")
                }
                return position
            } ?? -1
        let rows = try await read { connection throws(StorageError) in
            try connection.query(Self.linkedPage(of: link.owner), [link.id, after, limit + 1])
        }
        let page = Array(rows.prefix(limit))
        do {
            let next = rows.count > limit ? try page.last.map { row throws(StorageError) in String(try row.integer("link_position")) } : nil
            return AssetPage(assets: try Asset.all(page), nextCursor: next, previousCursor: nil)
        } catch {
            throw LibraryError(error)
        }
    }

    /// One asset a link shows (a Live Photo's movie by its still), not in its owner's trash:
    /// any other is as absent as one that never was.
    public func linkedAsset(_ id: String, in link: ShareLink) async throws(LibraryError) -> Asset {
        let found = try await read { connection throws(StorageError) -> Asset? in
            guard let asset = try Catalog.asset(id, connection), asset.trashedDate == nil else { return nil }
            let entry = asset.livePhotoStill ?? asset.id
            let shown =
                if let album = link.albumID {
                    try connection.query("SELECT 1 FROM album_assets WHERE album_id = ? AND asset_id = ?", [album, entry])
                } else {
                    try connection.query(Self.linkedEntry, [entry, link.id])
                }
            return shown.isEmpty ? nil : asset
        }
        guard let found else { throw LibraryError(.notFound, "There is no such item in this link.") }
        return found
    }

    /// A guest's upload through a link that allows it: into the link's album, and, when it is
    /// a new item (not bytes the owner had already), marked as from the link.
    public func addFromLink(_ id: String, link: ShareLink, isNew: Bool) async throws(LibraryError) -> Asset {
        guard let album = link.albumID, link.options.allowUpload else {
            throw LibraryError(.notAllowed, "This link does not take uploads.")
        }
        let now = Library.timestamp()
        try await write { connection throws(StorageError) in
            if isNew { try connection.run("UPDATE assets SET from_link = ? WHERE id = ? AND owner_id = ?", [link.id, id, link.owner.id]) }
            try Library.addEntry(album: album, asset: id, at: now, connection: connection)
        }
        return try await asset(id, owner: link.owner)
    }

    /// A page of a link's chosen items (`?`: the link, the position after which, how many), of
    /// `owner`'s: the link's entries in order from their key, each item by its own.
    package static func linkedPage(of owner: Owner) -> String {
        """
        SELECT \(Asset.columns(of: owner)), s.position AS link_position FROM share_link_assets s JOIN assets a ON a.id = s.asset_id
            WHERE s.link_id = ? AND s.position > ? AND a.trashed_at IS NULL ORDER BY s.position LIMIT ?
        """
    }

    /// Whether an item (`?`) is among a link's (`?`) chosen ones: by the item's entries.
    package static let linkedEntry = "SELECT 1 FROM share_link_assets WHERE asset_id = ? AND link_id = ?"

    private static let linkColumns = """
        SELECT l.id, l.owner_id, l.album_id, l.created_at, l.expires, l.password, l.remove_location, l.allow_download, l.allow_upload,
            (SELECT count(*) FROM share_link_assets s WHERE s.link_id = l.id) AS item_count FROM share_links l
        """

    private static func link(_ row: Row) throws(StorageError) -> ShareLink {
        let content: ShareLink.Content =
            if let album = try row.optionalText("album_id") { .album(album) } else { .assets(count: try row.integer("item_count")) }
        return ShareLink(
            id: try row.text("id"), owner: Owner(id: try row.integer("owner_id")), content: content,
            created: try row.text("created_at"), expires: try row.optionalInteger("expires"), password: try row.optionalText("password"),
            options: ShareLink.Options(
                removeLocation: try row.flag("remove_location"), allowDownload: try row.flag("allow_download"),
                allowUpload: try row.flag("allow_upload")))
    }
}
