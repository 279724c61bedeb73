import Imaging
import PhotoLibrary

/// An asset as the API shows it: its metadata, its stored edit, and the URLs of its media.
/// Each key is written once, straight from the asset: the facts are the asset's own, not a
/// copy of its fields kept beside it.
struct AssetJSON: Encodable {
    let asset: Asset

    init(_ asset: Asset) { self.asset = asset }

    func encode(to encoder: any Encoder) throws {
        var json = JSONFields(encoder)
        try json.put("id", asset.id)
        // Whose it is: in a shared album, who added it (a person adds only their own).
        try json.put("owner", asset.owner.id)
        try json.put("mediaType", asset.mediaType.rawValue)
        try json.put("width", asset.width)
        try json.put("height", asset.height)
        try json.put("duration", asset.duration)
        try json.put("captureDate", asset.captureDate)
        try json.put("importDate", asset.importDate)
        try json.put("source", asset.source.rawValue)
        try json.put("inCameraRoll", asset.inCameraRoll)
        try json.put("unsaved", asset.isUnsaved)
        try json.put("favorite", asset.isFavorite)
        try json.put("trashed", asset.trashedDate != nil)
        // In Recently Deleted: since when, and when it is deleted for good (its days left).
        try json.put("trashedDate", asset.trashedDate)
        try json.put("purgeDate", asset.purgeDate)
        try json.put("originalFilename", asset.originalFilename)
        try json.put("mimeType", asset.mimeType)
        try json.put("byteSize", asset.byteSize)
        try json.put("cameraMake", asset.cameraMake)
        try json.put("cameraModel", asset.cameraModel)
        try json.put("hasGPS", asset.hasGPS)
        try json.put("isScreenshot", asset.isScreenshot)
        // What the viewer's info panel shows of a photo, from its EXIF; each absent when unknown:
        // f-number 2.2 for f/2.2, exposure in seconds (0.008 for 1/125 s), the lens's own focal
        // length in millimetres, signed decimal degrees (north and east positive; both or neither).
        try json.put("lensModel", asset.exif.lensModel)
        try json.put("fNumber", asset.exif.fNumber)
        try json.put("exposureTime", asset.exif.exposureTime)
        try json.put("iso", asset.exif.iso)
        try json.put("focalLength", asset.exif.focalLength)
        try json.put("latitude", asset.exif.latitude)
        try json.put("longitude", asset.exif.longitude)
        // Where that is in words, `{name, region, country, countryCode}` ("Arezzo", "Tuscany",
        // "Italy", "IT"; no region where GeoNames names none), once the gazetteer has looked the
        // position up; absent far from any town.
        try json.put("place", asset.place)
        // Frames a second as recorded (movies); 100 or more is slow motion to a picker's filter.
        try json.put("captureFrameRate", asset.captureFrameRate)
        try json.put("browserPlayable", asset.isBrowserPlayable)
        // `{cropRect, rotation, flipped}` or `{trim}`, as `PUT /api/assets/<id>/edit` takes it.
        try json.put("edit", asset.edit)
        try json.put("urls", urls)
        // A Live Photo's movie, which is an asset of its own that no listing shows; on the
        // movie, its still.
        try json.put(
            "livePhoto",
            asset.livePhotoMovie.map { movie in
                JSONObject { json in
                    try json.put("movie", movie)
                    try json.put("video", "/media/\(movie)/video")
                    try json.put("original", "/media/\(movie)/original")
                    try json.put("rendition", "/api/assets/\(movie)/rendition")
                }
            })
        try json.put("livePhotoStill", asset.livePhotoStill)
        // Added by a guest through this shared link of the owner's.
        try json.put("fromLink", asset.fromLink)
    }

    /// The URLs of its media. `display` takes `w`, `h` (CSS pixels), `dpr` and optionally `fit`
    /// as query parameters; `shown` is what the library shows of it: the display of its edit
    /// when it has one (the edit in the URL, so that the URL changes with it), else `display`.
    private var urls: JSONObject {
        let media = "/media/\(asset.id)"
        // A photo's thumbnails and display show its edit, named in their URLs.
        var photoEdit: String?
        if case .image = asset.edit { photoEdit = asset.edit?.capabilityText }
        let withEdit = photoEdit.map { "&edit=\($0)" } ?? ""
        let movie = asset.mediaType == .movie
        return JSONObject { [asset] json in
            try json.put("original", "\(media)/original")
            try json.put("thumbnail256", "\(media)/thumbnail?size=256\(withEdit)")
            try json.put("thumbnail512", "\(media)/thumbnail?size=512\(withEdit)")
            try json.put("display", "\(media)/display")
            try json.put("edited", "\(media)/edited")
            try json.put("shown", photoEdit.map { "\(media)/edited?edit=\($0)" } ?? "\(media)/display")
            try json.put("poster", movie ? "\(media)/poster" : nil)
            try json.put("video", movie ? "\(media)/video" : nil)
            try json.put("rendition", movie ? "/api/assets/\(asset.id)/rendition" : nil)
        }
    }
}

/// An object whose fields a closure writes, in its order.
struct JSONObject: Encodable {
    let write: (inout JSONFields) throws -> Void

    func encode(to encoder: any Encoder) throws {
        var json = JSONFields(encoder)
        try write(&json)
    }
}

/// An object's fields written by name, an absent value left out (as a synthesized `Encodable`
/// leaves out a nil).
struct JSONFields {
    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    private var container: KeyedEncodingContainer<Key>

    init(_ encoder: any Encoder) { container = encoder.container(keyedBy: Key.self) }

    mutating func put(_ name: String, _ value: (some Encodable)?) throws {
        try container.encodeIfPresent(value, forKey: Key(stringValue: name))
    }
}
