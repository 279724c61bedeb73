import Storage
import Vocabulary

/// A Live Photo is two files an iPhone writes with one content identifier: a still (HEIC or
/// JPEG) and a short movie. The library keeps both as assets and pairs them on import,
/// whichever half comes first: the movie then names its still (`live_photo_of`), leaves every
/// listing and is shown as the still's motion. Each original stays as it came.
enum LivePhoto {
    /// The identifier as the library keeps it: printable ASCII without spaces, at most 64
    /// characters (iPhones write UUIDs), else none; a file's metadata is untrusted text.
    static func identifier(_ text: String?) -> String? {
        guard let text, (1...64).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return text
    }

    /// Pairs the asset just inserted with its other half, if its owner holds it and it has no
    /// partner yet; in the transaction that inserts the asset, under a lock on the identifier,
    /// so that two halves imported at once on two servers still find each other.
    static func pair(
        _ id: String, _ mediaType: MediaType, _ identifier: String, owner: Owner, _ connection: any SQLConnection
    ) throws(StorageError) {
        try connection.lock("live photo \(owner.id) \(identifier)")
        switch mediaType {
        case .movie:
            let still = try connection.query(
                """
                SELECT s.id FROM assets s WHERE s.owner_id = ? AND s.content_identifier = ? AND s.media_type = ?
                    AND NOT EXISTS (SELECT 1 FROM assets p WHERE p.live_photo_of = s.id)
                ORDER BY s.imported_at, s.id LIMIT 1
                """, [owner.id, identifier, MediaType.image.rawValue]
            ).first
            guard let still = try still?.text("id") else { return }
            try connection.run("UPDATE assets SET live_photo_of = ? WHERE id = ?", [still, id])
        case .image:
            try connection.run(
                """
                UPDATE assets SET live_photo_of = ? WHERE id = (
                    SELECT m.id FROM assets m WHERE m.owner_id = ? AND m.content_identifier = ? AND m.media_type = ?
                        AND m.live_photo_of IS NULL
                    ORDER BY m.imported_at, m.id LIMIT 1)
                """, [id, owner.id, identifier, MediaType.movie.rawValue])
        }
    }
}
