/// A selection of the library to download as one ZIP archive of its originals: what
/// `Library.createDownload` keeps in the database for `Library.downloadLifetime` under an
/// unguessable token, so that any server of the library can send it (`Library.write`).
public struct Download: Sendable {
    public let token: String
    /// The archive's file name: `CameraRoll <the day it was asked for>.zip`.
    public let filename: String
    /// The archive's files in order: each item asked for, a Live Photo's still followed by its movie.
    let assets: [Asset]
    let layout: ZipLayout

    /// The archive's exact size in bytes, known before any is read.
    public var size: Int { layout.size }

    /// The items asked for: a Live Photo is one, its movie a second file.
    public var count: Int { assets.count(where: { $0.livePhotoStill == nil }) }

    public var fileCount: Int { assets.count }

    /// `layout`: the assets' own by default; another (ZIP64's records forced) to test readers with.
    init(token: String, filename: String, assets: [Asset], layout: ZipLayout? = nil) {
        self.token = token
        self.filename = filename
        self.assets = assets
        self.layout = layout ?? ZipLayout(Self.entries(assets))
    }

    /// The archive's entries: each asset's file under its original name (as `ArchiveNames` makes
    /// it safe and unique), dated when it was taken, else when it came into the library.
    static func entries(_ assets: [Asset]) -> [ZipLayout.Entry] {
        var names = ArchiveNames()
        return assets.map { asset in
            let modified = DOSTimestamp(iso: asset.captureDate ?? asset.importDate) ?? DOSTimestamp(iso: asset.importDate) ?? .earliest
            return ZipLayout.Entry(
                name: names.name(asset.originalFilename, format: asset.format, otherwise: asset.fallbackFilename), size: asset.byteSize,
                modified: modified)
        }
    }
}

extension Asset {
    /// The name its original is downloaded as: its own as any desktop takes it
    /// (`PortableFilename.forDesktop`), else `<id>.<its format's extension>`.
    public var downloadFilename: String {
        originalFilename.flatMap { PortableFilename.forDesktop($0, format: format) } ?? fallbackFilename
    }

    var fallbackFilename: String { "\(id).\(format.fileExtension)" }
}
