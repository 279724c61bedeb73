import Storage

/// An album and how many assets it shows.
public struct Album: Sendable, Equatable, Codable {
    public var id: String
    public var title: String
    public var count: Int
}

extension Library {
    /// The built-in Camera Roll's id: the book's `savedPhotosAlbum`.
    public static let cameraRollID = "cameraRoll"

    /// Saves an asset to the Camera Roll (the book's `UIImageWriteToSavedPhotosAlbum`); an unsaved
    /// capture becomes part of the library.
    public func saveToCameraRoll(_ id: String) async throws(LibraryError) -> Asset {
        _ = try await asset(id)
        let now = Self.timestamp()
        try await write { connection throws(StorageError) in try Self.addToCameraRoll(id, connection: connection, at: now) }
        return try await asset(id)
    }

    /// Every album with the number of assets it shows (trashed ones left out).
    public func albums() async throws(LibraryError) -> [Album] {
        try await read { connection throws(StorageError) in
            try connection.query(
                """
                SELECT al.id, al.title, count(a.id) AS count FROM albums al
                LEFT JOIN album_assets m ON m.album_id = al.id
                LEFT JOIN assets a ON a.id = m.asset_id AND a.trashed_at IS NULL AND a.live_photo_of IS NULL
                GROUP BY al.id ORDER BY al.builtin DESC, al.title
                """
            ).map { row throws(StorageError) in Album(id: try row.text("id"), title: try row.text("title"), count: try row.integer("count"))
            }
        }
    }
}
