import Foundation
import Storage

extension Asset {
    /// The columns every asset query selects, so that `init(row:)` always finds them.
    static let columns = """
        a.*, EXISTS (SELECT 1 FROM album_assets m WHERE m.album_id = 'cameraRoll' AND m.asset_id = a.id) AS in_camera_roll
        """

    init?(row: Row) {
        guard let id = row.string("id"), let mediaType = row.string("media_type").flatMap(MediaType.init(rawValue:)),
            let hash = row.string("blob_hash"), let source = row.string("source").flatMap(AssetSource.init(rawValue:))
        else { return nil }
        self.init(
            id: id, mediaType: mediaType, blobHash: hash, byteSize: row.int("byte_size") ?? 0,
            format: row.string("format") ?? "", mimeType: row.string("mime_type") ?? "application/octet-stream",
            originalFilename: row.string("original_filename"), width: row.int("width") ?? 0, height: row.int("height") ?? 0,
            duration: row.double("duration"), orientation: row.int("orientation") ?? 1,
            captureDate: row.string("capture_date"), cameraMake: row.string("camera_make"),
            cameraModel: row.string("camera_model"), hasGPS: row.bool("has_gps"), source: source,
            isUnsaved: row.bool("unsaved"), importDate: row.string("imported_at") ?? "",
            isFavorite: row.bool("favorite"), trashedDate: row.string("trashed_at"),
            inCameraRoll: row.bool("in_camera_roll"),
            edit: row.string("edit").flatMap { try? JSONDecoder().decode(Edit.self, from: Data($0.utf8)) },
            isBrowserPlayable: row.int("browser_playable").map { $0 != 0 })
    }
}
