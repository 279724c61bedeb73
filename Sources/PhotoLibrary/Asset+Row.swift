import Foundation
import Imaging
import Storage

extension Asset {
    /// The columns every asset query selects, so that `init(row:)` always finds them.
    static let columns = """
        a.*, EXISTS (SELECT 1 FROM album_assets m WHERE m.album_id = 'cameraRoll' AND m.asset_id = a.id) AS in_camera_roll,
        (SELECT min(p.id) FROM assets p WHERE p.live_photo_of = a.id) AS live_photo_movie
        """

    /// The asset a row of `columns` holds, decoded strictly: a row this version cannot read
    /// whole is an error, never an asset with made-up values.
    init(row: Row) throws(StorageError) {
        let mediaType = try Self.decoded(row, "media_type", MediaType.init(rawValue:))
        let format = try Self.decoded(row, "format", AssetFormat.init(rawValue:))
        guard format.mediaType == mediaType else {
            throw StorageError(.corruptRow, "A row of the library is damaged: its format is not of its media type.")
        }
        let editText = try row.optionalText("edit")
        let edit: Edit?
        do {
            edit = try editText.map { try JSONDecoder().decode(Edit.self, from: Data($0.utf8)) }
        } catch {
            throw StorageError(.corruptRow, "A row of the library is damaged: its column edit is not an edit.")
        }
        self.init(
            id: try row.text("id"), mediaType: mediaType, blobHash: try row.text("blob_hash"), byteSize: try row.integer("byte_size"),
            format: format, mimeType: try row.text("mime_type"), originalFilename: try row.optionalText("original_filename"),
            width: try row.integer("width"), height: try row.integer("height"), duration: try row.optionalReal("duration"),
            orientation: try row.integer("orientation"), captureDate: try row.optionalText("capture_date"),
            cameraMake: try row.optionalText("camera_make"), cameraModel: try row.optionalText("camera_model"),
            hasGPS: try row.flag("has_gps"), isScreenshot: try row.flag("is_screenshot"), exif: try Self.exif(row),
            captureFrameRate: try row.optionalReal("capture_frame_rate"),
            source: try Self.decoded(row, "source", AssetSource.init(rawValue:)),
            isUnsaved: try row.flag("unsaved"), importDate: try row.text("imported_at"), isFavorite: try row.flag("favorite"),
            trashedDate: try row.optionalText("trashed_at"), inCameraRoll: try row.flag("in_camera_roll"), edit: edit,
            isBrowserPlayable: try row.optionalFlag("browser_playable"), livePhotoMovie: try row.optionalText("live_photo_movie"),
            livePhotoStill: try row.optionalText("live_photo_of"))
    }

    private static func exif(_ row: Row) throws(StorageError) -> ExifDetails {
        ExifDetails(
            lensModel: try row.optionalText("lens_model"), fNumber: try row.optionalReal("f_number"),
            exposureTime: try row.optionalReal("exposure_time"), iso: try row.optionalInteger("iso"),
            focalLength: try row.optionalReal("focal_length"), latitude: try row.optionalReal("latitude"),
            longitude: try row.optionalReal("longitude"))
    }

    /// A text column that names a value of ours.
    private static func decoded<T>(_ row: Row, _ column: String, _ make: (String) -> T?) throws(StorageError) -> T {
        guard let value = make(try row.text(column)) else {
            throw StorageError(.corruptRow, "A row of the library is damaged: its column \(column) names nothing this version knows.")
        }
        return value
    }
}
