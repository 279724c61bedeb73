/// A selection of the library to download as one ZIP archive of its originals: what
/// `Library.createDownload` keeps in the database for `Library.downloadLifetime` under an
/// unguessable token, so that any server of the library can send it (`Library.write`).
public struct Download: Sendable {
    public let token: String
    /// The archive's file name: `CameraRoll <the day it was asked for>.zip`.
    public let filename: String
    /// The archive's files in order: each item asked for, a Live Photo's still followed by its movie.
    let files: [File]
    let layout: ZipLayout

    /// One file of an archive: an asset's original, or a copy made of it for the archive (one
    /// without its location), read instead and named for its own format. A copy is held open
    /// from the start: the cache that keeps it may let it go before the archive is sent.
    struct File: Sendable {
        let asset: Asset
        let copy: Copy?

        struct Copy: Sendable {
            let file: ReadOnlyFile
            let format: AssetFormat
            let size: Int
        }

        var size: Int { copy?.size ?? asset.byteSize }
        var format: AssetFormat { copy?.format ?? asset.format }
    }

    /// The archive's assets in order, whether their originals or copies of them go in.
    var assets: [Asset] { files.map(\.asset) }

    /// The archive's exact size in bytes, known before any is read.
    public var size: Int { layout.size }

    /// The items asked for: a Live Photo is one, its movie a second file.
    public var count: Int { files.count(where: { $0.asset.livePhotoStill == nil }) }

    public var fileCount: Int { files.count }

    /// `layout`: the files' own by default; another (ZIP64's records forced) to test readers with.
    init(token: String, filename: String, files: [File], layout: ZipLayout? = nil) {
        self.token = token
        self.filename = filename
        self.files = files
        self.layout = layout ?? ZipLayout(Self.entries(files))
    }

    /// Of originals alone.
    init(token: String, filename: String, assets: [Asset], layout: ZipLayout? = nil) {
        self.init(token: token, filename: filename, files: assets.map { File(asset: $0, copy: nil) }, layout: layout)
    }

    /// The archive's entries: each file under its asset's original name (as `ArchiveNames` makes
    /// it safe and unique; a copy of another format with that format's extension), dated when it
    /// was taken, else when it came into the library.
    static func entries(_ files: [File]) -> [ZipLayout.Entry] {
        var names = ArchiveNames()
        return files.map { file in
            let asset = file.asset
            let modified = DOSTimestamp(iso: asset.captureDate ?? asset.importDate) ?? DOSTimestamp(iso: asset.importDate) ?? .earliest
            let original =
                file.format == asset.format ? asset.originalFilename : asset.originalFilename.map { PortableFilename.parts($0).stem }
            return ZipLayout.Entry(
                name: names.name(original, format: file.format, otherwise: "\(asset.id).\(file.format.fileExtension)"), size: file.size,
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
