import Foundation
public import Imaging
public import Places
public import Storage

/// The asset's row is the asset itself (`RowRecord`): its fields are the `assets` table's columns,
/// read and written by their coding keys.
extension Asset: RowRecord {
    public static let columnNames = [
        "isUnsaved": "unsaved", "importDate": "imported_at", "isFavorite": "favorite", "trashedDate": "trashed_at",
        "isBrowserPlayable": "browser_playable", "livePhotoStill": "live_photo_of", "owner": "owner_id",
    ]
    public static let computedColumns: Set = ["in_camera_roll", "live_photo_movie"]

    /// The columns every asset query selects: the table's and the computed ones, of any owner's
    /// assets (a few read by id).
    static let columns = columns(cameraRoll: Library.cameraRollID(ofOwnerIn: "a.owner_id"))

    /// The columns of a listing of one owner's assets: their Camera Roll named as it is, so that
    /// each row's question is a probe of an entry's key (named by the row's own owner, the
    /// planner may answer it by reading every entry of every album into a hash).
    static func columns(of owner: Owner) -> String { columns(cameraRoll: "'\(Library.cameraRollID(of: owner))'") }

    /// `cameraRoll`: the Camera Roll's id, in SQL.
    private static func columns(cameraRoll: String) -> String {
        """
        a.*, EXISTS (SELECT 1 FROM album_assets m WHERE m.album_id = \(cameraRoll) AND m.asset_id = a.id) AS in_camera_roll,
        (SELECT min(p.id) FROM assets p WHERE p.live_photo_of = a.id) AS live_photo_movie
        """
    }

    /// The asset a row of `columns` holds, decoded strictly: a row this version cannot read
    /// whole is an error, never an asset with made-up values.
    init(row: Row) throws(StorageError) {
        self = try row.decode(Asset.self)
        try checkFormat()
    }

    /// The assets rows of `columns` hold, as `init(row:)` reads each (a listing's page).
    static func all(_ rows: [Row]) throws(StorageError) -> [Asset] {
        let assets = try rows.decode(Asset.self)
        for asset in assets { try asset.checkFormat() }
        return assets
    }

    private func checkFormat() throws(StorageError) {
        guard format.mediaType == mediaType else {
            throw StorageError(.corruptRow, "A row of the library is damaged: its format is not of its media type.")
        }
    }
}

/// A photo's EXIF details are columns of its asset's row.
extension ExifDetails: RowColumns {}

extension Edit: JSONColumn {
    public static let columnDescription = "an edit"
}

extension Place: JSONColumn {
    public static let columnDescription = "a place"
}
