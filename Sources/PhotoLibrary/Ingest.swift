import Executors
import Foundation
import Imaging
import Storage
import Video
import Vocabulary

/// Originals into the library and out of it: a file is staged and hashed, decoded once (which
/// proves it whole and makes its first derivatives), its blob stored, and its row committed in
/// a short transaction (`storeBlob`); deletion and collection take them out again
/// (`Ingest+Deletion`). Its decodes and file work run on its own lane.
public final class Ingest: FileWorking {
    let stores: LibraryStores
    let catalog: Catalog
    let derivatives: Derivatives
    let mediaJobs: MediaJobs
    let imaging: Imaging
    /// Staging, hashing and an import's first decode, `options.imageWorkers` at once.
    let lane: BlockingExecutor<Void>

    init(_ stores: LibraryStores, catalog: Catalog, derivatives: Derivatives, mediaJobs: MediaJobs, imaging: Imaging) {
        self.stores = stores
        self.catalog = catalog
        self.derivatives = derivatives
        self.mediaJobs = mediaJobs
        self.imaging = imaging
        lane = BlockingExecutor(name: "ingest", threads: stores.options.imageWorkers)
    }

    /// Imports a file by copying it into the library. The same bytes imported twice give the
    /// same asset. The answer comes only once the original is durably stored and committed.
    public func importFile(
        at path: String, originalFilename: String? = nil, source: AssetSource = .imported, saveToCameraRoll: Bool = false
    ) async throws(LibraryError) -> ImportResult {
        let limit = options.maxFileBytes
        let staged = try await lane.run { [staging] () throws(LibraryError) -> StagedFile in
            do throws(StorageError) {
                return try staging.stage(copying: path, maxBytes: limit)
            } catch {
                throw error.code == .notFound
                    ? LibraryError(.notFound, "The file does not exist.") : LibraryError(error)
            }
        }
        let name = originalFilename ?? (path as NSString).lastPathComponent
        return try await ingest(staged, originalFilename: name, source: source, saveToCameraRoll: saveToCameraRoll)
    }

    /// Imports a file that was streamed into the library's temp folder (an upload). The file is
    /// moved, not copied, and is gone afterwards whatever the outcome.
    public func importUpload(
        temporaryFile path: String, originalFilename: String?, source: AssetSource, saveToCameraRoll: Bool = false
    ) async throws(LibraryError) -> ImportResult {
        precondition(path.hasPrefix(stores.workFolder.path + "/"), "uploads must be staged in the library's work folder")
        let staged = try await lane.run { [staging] () throws(LibraryError) -> StagedFile in
            do throws(StorageError) {
                return try staging.stage(adopting: path)
            } catch {
                unlink(path)
                throw LibraryError(error)
            }
        }
        return try await ingest(staged, originalFilename: originalFilename, source: source, saveToCameraRoll: saveToCameraRoll)
    }

    /// Whatever the outcome, the staged copy goes: into the blob store, or away. `livePhotoOf`
    /// names the still whose motion this movie is (a motion photo's own movie).
    func ingest(
        _ staged: StagedFile, originalFilename: String?, source: AssetSource, saveToCameraRoll: Bool, livePhotoOf: String? = nil
    ) async throws(LibraryError) -> ImportResult {
        reach(.afterStaging)
        do {
            return try await ingestStaged(
                staged, originalFilename: originalFilename, source: source, saveToCameraRoll: saveToCameraRoll, livePhotoOf: livePhotoOf)
        } catch {
            // Once committed, the staged file is the blob and this finds nothing to remove.
            await lane.run { [staging] in staging.discard(staged) }
            throw error
        }
    }

    private func ingestStaged(
        _ staged: StagedFile, originalFilename: String?, source: AssetSource, saveToCameraRoll: Bool, livePhotoOf: String?
    ) async throws(LibraryError) -> ImportResult {
        guard staged.size > 0 else { throw LibraryError(.empty, "The file is empty.") }
        if let existing = try await rememberAgain(staged.hash, source: source, saveToCameraRoll: saveToCameraRoll, livePhotoOf: livePhotoOf)
        {
            await lane.run { [staging] in staging.discard(staged) }
            return ImportResult(asset: existing, isDuplicate: true)
        }

        let analysis = try await analyse(staged.path)
        let id = Library.newID()
        let now = Library.timestamp()
        let draft = AssetDraft(
            id: id, staged: staged, analysis: analysis, originalFilename: originalFilename.flatMap(PortableFilename.kept),
            source: source, unsaved: source == .camera && !saveToCameraRoll, importedAt: now, livePhotoOf: livePhotoOf)

        // A crash between the blob and its row leaves an orphan blob, which collection removes.
        let inserted: Bool = try await storeBlob(staged) { connection throws(StorageError) -> Bool in
            guard try connection.query("SELECT 1 FROM assets WHERE blob_hash = ?", [staged.hash]).isEmpty else {
                return false
            }
            try draft.insert(into: connection)
            if livePhotoOf == nil, let identifier = analysis.contentIdentifier {
                try LivePhoto.pair(id, analysis.mediaType, identifier, connection)
            }
            if saveToCameraRoll { try Library.addToCameraRoll(id, connection: connection, at: now) }
            return true
        }
        guard inserted else {
            // Another import of the same bytes committed first.
            let existing = try await rememberAgain(
                staged.hash, source: source, saveToCameraRoll: saveToCameraRoll, livePhotoOf: livePhotoOf)
            guard let existing else { throw LibraryError(.database, "The asset vanished while it was imported.") }
            return ImportResult(asset: existing, isDuplicate: true)
        }
        reach(.afterDatabaseCommit)
        await derivatives.keep(analysis.derivatives, of: staged.hash)
        // The row is what the draft says, unless a pairing or a motion photo's movie named
        // another asset in it since: only then is it read back.
        var asset = draft.asset
        asset.inCameraRoll = saveToCameraRoll
        if let length = analysis.embeddedMovieLength {
            await importEmbeddedMovie(of: asset, length: length)
            asset = try await catalog.asset(id)
        } else if analysis.contentIdentifier != nil {
            asset = try await catalog.asset(id)
        }
        catalog.remember(asset)
        return ImportResult(asset: asset, isDuplicate: false)
    }

    /// The asset already holding these bytes, brought back into view by this import: out of
    /// the trash, and into the library or the Camera Roll as the new import asks (or made the
    /// motion of `livePhotoOf`, if it is nobody's yet).
    private func rememberAgain(_ hash: String, source: AssetSource, saveToCameraRoll: Bool, livePhotoOf: String?)
        async throws(LibraryError) -> Asset?
    {
        // Most imports are new bytes: they look without taking the writer.
        let known = try await read { connection throws(StorageError) in
            try !connection.query("SELECT 1 FROM assets WHERE blob_hash = ?", [hash]).isEmpty
        }
        guard known else { return nil }
        let now = Library.timestamp()
        let id: String? = try await write { connection throws(StorageError) -> String? in
            guard let id = try connection.query("SELECT id FROM assets WHERE blob_hash = ?", [hash]).first?.text("id") else {
                return nil
            }
            try connection.run("UPDATE assets SET trashed_at = NULL WHERE id = ?", [id])
            if source != .camera { try connection.run("UPDATE assets SET unsaved = FALSE WHERE id = ?", [id]) }
            if saveToCameraRoll { try Library.addToCameraRoll(id, connection: connection, at: now) }
            if let livePhotoOf {
                try connection.run("UPDATE assets SET live_photo_of = ? WHERE id = ? AND live_photo_of IS NULL", [livePhotoOf, id])
            }
            return id
        }
        guard let id else { return nil }
        return try await catalog.asset(id)
    }

    /// What the bytes are, learnt by decoding them: the probe, and the import-time derivatives
    /// whose making proves the file decodes to its end.
    private func analyse(_ path: String) async throws(LibraryError) -> Analysis {
        // The header and a motion photo's movie are read in one hop, off the cooperative pool,
        // from one opening of the file.
        let (header, movieLength) = try await lane.run { () throws(LibraryError) -> ([UInt8], Int?) in
            guard let file = FileHandle(forReadingAtPath: path) else { throw LibraryError(.io, "The staged file cannot be read.") }
            defer { try? file.close() }
            guard let read = try? file.read(upToCount: 64) else { throw LibraryError(.io, "The staged file cannot be read.") }
            let header = Array(read)
            return (header, ImageFormat.sniff(header) != nil ? Library.embeddedMovieLength(file) : nil)
        }
        if let format = ImageFormat.sniff(header) {
            var analysis = try await analyseImage(path, format: format)
            analysis.embeddedMovieLength = movieLength
            return analysis
        }
        if let container = ContainerFormat.sniff(header) {
            return try await analyseMovie(path, container: container)
        }
        throw LibraryError(
            .unsupportedType,
            "The file is not a supported photo or video (JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, MP4, MOV, WebM, MKV, AVI).")
    }

    private func analyseImage(_ path: String, format: ImageFormat) async throws(LibraryError) -> Analysis {
        var requests = Library.thumbnailRequests
        var keys = DerivativeKey.thumbnailSizes.map { DerivativeKey.thumbnail($0) }
        if let box = options.importDisplayBox {
            let request = Library.displayRequest(format: .image(format), box: box, fit: .contain, crop: nil)
            requests.append(request)
            keys.append(DerivativeKey.display(box: box, fit: .contain, edit: nil, encoding: request.encoding))
        }
        let (info, rendered) = try await firstDecode(path, format: format, requests)
        return Analysis(
            mediaType: .image, format: .image(info.format), mimeType: info.format.mimeType,
            width: info.width, height: info.height, duration: nil, orientation: info.orientation,
            captureDate: info.captureDate, cameraMake: info.cameraMake, cameraModel: info.cameraModel,
            hasGPS: info.hasGPS, isScreenshot: info.isScreenshot, exif: info.exif, browserPlayable: nil,
            contentIdentifier: LivePhoto.identifier(info.contentIdentifier), derivatives: zip(keys, rendered).map { ($0, $1.data) })
    }

    /// The decode that decides whether an image is accepted (`ImportDecoder`): in a child
    /// process for the formats whose decoders may abort, else on the work queue.
    private func firstDecode(
        _ path: String, format: ImageFormat, _ requests: [RenderRequest]
    ) async throws(LibraryError) -> (info: ImageInfo, outputs: [RenderedImage]) {
        let log = options.log
        if ImportDecoder.formatsDecodedApart.contains(format), let decoder = options.imageDecoder {
            let (prefix, fd) = try await files { [staging] () throws(StorageError) in try staging.makeTemporaryFile(suffix: ".decoded") }
            close(fd)
            defer { unlink(prefix) }
            do throws(ImagingError) {
                return try await ImportDecoder.decodeApart(decoder, path, requests, maxPixels: options.maxPixels, outputPrefix: prefix)
            } catch {
                throw Library.reported(error, "decoding an image to import", log)
            }
        }
        return try await lane.run { [imaging] () throws(LibraryError) -> (info: ImageInfo, outputs: [RenderedImage]) in
            do throws(ImagingError) {
                // The format sniffed from the header the import read: no part of the decode reads it again.
                return try ImportDecoder.decode(imaging, ImageFile(path, format: format), requests)
            } catch {
                throw Library.reported(error, "decoding an image to import", log)
            }
        }
    }

    private func analyseMovie(_ path: String, container: ContainerFormat) async throws(LibraryError) -> Analysis {
        let info: VideoInfo
        do throws(VideoError) {
            info = try await options.video.probe(path, format: container)
        } catch {
            throw Library.reported(error, "probing a movie to import", options.log)
        }
        let poster = try await derivatives.makePoster(path, container: container)
        let strip = await mediaJobs.importedScrubStrip(path, container: container)
        let log = options.log
        let (posterBytes, thumbnails) = try await lane.run { [imaging] () throws(LibraryError) -> ([UInt8], [RenderedImage]) in
            defer { unlink(poster) }
            let bytes = try Library.read(poster)
            do throws(ImagingError) {
                return (bytes, try imaging.render(Derivatives.poster(poster), Library.thumbnailRequests))
            } catch {
                throw Library.reported(error, "a movie's thumbnails", log)
            }
        }
        return Analysis(
            mediaType: .movie, format: .movie(container), mimeType: container.mimeType,
            width: info.width, height: info.height, duration: info.duration, orientation: 1,
            captureDate: info.creationDate, cameraMake: nil, cameraModel: nil, hasGPS: false, captureFrameRate: info.captureFrameRate,
            browserPlayable: info.isBrowserPlayable, contentIdentifier: LivePhoto.identifier(info.contentIdentifier),
            derivatives: [(DerivativeKey.poster, posterBytes)] + (strip.map { [(DerivativeKey.scrubStrip, $0)] } ?? [])
                + zip(DerivativeKey.thumbnailSizes, thumbnails).map { (DerivativeKey.thumbnail($0), $1.data) })
    }
}

extension Library {
    static func read(_ path: String) throws(LibraryError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LibraryError(.io, "A working file cannot be read.")
        }
        return Array(data)
    }
}

/// What analysing a file found.
struct Analysis: Sendable {
    var mediaType: MediaType
    var format: AssetFormat
    var mimeType: String
    var width: Int
    var height: Int
    var duration: Double?
    var orientation: Int
    var captureDate: String?
    var cameraMake: String?
    var cameraModel: String?
    var hasGPS: Bool
    /// Whether the image says it is a screenshot (`ScreenshotMark`).
    var isScreenshot = false
    /// A photo's lens, exposure and location; none for a movie, whose location is not read yet.
    var exif = ExifDetails()
    var captureFrameRate: Double? = nil
    var browserPlayable: Bool?
    /// The Live Photo content identifier, as `LivePhoto.identifier` accepts it.
    var contentIdentifier: String?
    /// The length of the movie a motion photo carries at its end (`MotionPhoto`).
    var embeddedMovieLength: Int? = nil
    var derivatives: [(String, [UInt8])]
}

/// A new asset's row, ready to insert.
struct AssetDraft {
    var id: String
    var staged: StagedFile
    var analysis: Analysis
    var originalFilename: String?
    var source: AssetSource
    var unsaved: Bool
    var importedAt: String
    /// The still whose motion this movie is (an upload that names it).
    var livePhotoOf: String?

    /// The new asset: what analysis found, as the row is inserted.
    var asset: Asset {
        Asset(
            id: id, mediaType: analysis.mediaType, blobHash: staged.hash, byteSize: staged.size, format: analysis.format,
            mimeType: analysis.mimeType, originalFilename: originalFilename, width: analysis.width, height: analysis.height,
            duration: analysis.duration, orientation: analysis.orientation, captureDate: analysis.captureDate,
            cameraMake: analysis.cameraMake, cameraModel: analysis.cameraModel, hasGPS: analysis.hasGPS, isScreenshot: isScreenshot,
            exif: analysis.exif, captureFrameRate: analysis.captureFrameRate, source: source, isUnsaved: unsaved, importDate: importedAt,
            isFavorite: false, trashedDate: nil, inCameraRoll: false, edit: nil, isBrowserPlayable: analysis.browserPlayable,
            livePhotoMovie: nil, livePhotoStill: livePhotoOf)
    }

    func insert(into connection: any SQLConnection) throws(StorageError) {
        // A camera's clock may say 30 February or hour 25: that stays the camera's words
        // (capture_date), never an order that PostgreSQL would refuse and SQLite read otherwise.
        let captured = analysis.captureDate.map { String($0.prefix(19)) }.flatMap { Library.isMoment($0) ? $0 : nil }
        let sortDate = captured ?? String(importedAt.prefix(19))
        try connection.insert(
            asset, into: "assets", adding: [("sort_date", sortDate), ("content_identifier", analysis.contentIdentifier)])
    }

    /// A screenshot by what it says or by its name, as Android, macOS and Windows name them
    /// (`Screenshot_20240101-…`, `Screenshot 2024-…`, `Screen Shot 2019-…`); migration 0009 reads
    /// names so too.
    var isScreenshot: Bool {
        guard analysis.mediaType == .image else { return false }
        let name = originalFilename?.lowercased() ?? ""
        return analysis.isScreenshot || name.hasPrefix("screenshot") || name.hasPrefix("screen shot")
    }
}
