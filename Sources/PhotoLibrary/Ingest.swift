import Executors
import Foundation
import Imaging
import Places
import Storage
import Video
import Vocabulary

/// Originals into the library and out of it: a file is staged and hashed, found known or its
/// store claimed (`claimStore`), decoded once (which proves it whole and makes its first
/// derivatives) while its blob is stored, and its row committed in a short transaction
/// (`commitClaimed`); deletion and collection take them out again
/// (`Ingest+Deletion`). Its decodes and file work run on its own lane.
public final class Ingest: FileWorking {
    let stores: LibraryStores
    let catalog: Catalog
    let derivatives: Derivatives
    let mediaJobs: MediaJobs
    let geocoder: Geocoder
    let imaging: Imaging
    /// Staging, hashing and an import's first decode, `options.imageWorkers` at once.
    let lane: BlockingExecutor<Void>

    init(
        _ stores: LibraryStores, catalog: Catalog, derivatives: Derivatives, mediaJobs: MediaJobs, geocoder: Geocoder, imaging: Imaging
    ) {
        self.stores = stores
        self.catalog = catalog
        self.derivatives = derivatives
        self.mediaJobs = mediaJobs
        self.geocoder = geocoder
        self.imaging = imaging
        lane = BlockingExecutor(name: "ingest", threads: stores.options.imageWorkers)
    }

    /// Imports a file (or the bytes `range` of it: a file a form's body holds) by copying it into
    /// `owner`'s library. The same bytes imported twice by one person give the same asset. The answer comes only once the original is durably stored and
    /// committed.
    public func importFile(
        at path: String, range: Range<Int>? = nil, originalFilename: String? = nil, source: AssetSource = .imported,
        saveToCameraRoll: Bool = false, owner: Owner
    ) async throws(LibraryError) -> ImportResult {
        let limit = options.maxFileBytes
        let arrival = try await arrive { [staging] () throws(LibraryError) -> StagedFile in
            do throws(StorageError) {
                return try staging.stage(copying: path, range: range, maxBytes: limit)
            } catch {
                throw error.code == .notFound
                    ? LibraryError(.notFound, "The file does not exist.") : LibraryError(error)
            }
        }
        let name = originalFilename ?? (path as NSString).lastPathComponent
        return try await ingest(arrival, originalFilename: name, source: source, saveToCameraRoll: saveToCameraRoll, owner: owner)
    }

    /// Imports a file that was streamed into the library's temp folder (an upload). The file is
    /// moved, not copied, and is gone afterwards whatever the outcome. Given its `sha256` (the
    /// server hashed the body as it arrived), the store of its bytes is claimed while the file
    /// is staged: three hops in all, the claim beside the staging, the decode beside the put,
    /// and the commit.
    public func importUpload(
        temporaryFile path: String, sha256: String? = nil, originalFilename: String?, source: AssetSource,
        saveToCameraRoll: Bool = false, owner: Owner
    ) async throws(LibraryError) -> ImportResult {
        precondition(path.hasPrefix(stores.workFolder.path + "/"), "uploads must be staged in the library's work folder")
        let adopt: @Sendable () throws(LibraryError) -> StagedFile = { [staging] () throws(LibraryError) -> StagedFile in
            do throws(StorageError) {
                return try staging.stage(adopting: path, sha256: sha256)
            } catch {
                unlink(path)
                throw LibraryError(error)
            }
        }
        guard let sha256 else {
            return try await ingest(
                try await arrive(adopt), originalFilename: originalFilename, source: source, saveToCameraRoll: saveToCameraRoll,
                owner: owner)
        }
        let token = Library.newID()
        let remembered = Remembered(hash: sha256, source: source, saveToCameraRoll: saveToCameraRoll, livePhotoOf: nil, owner: owner)
        async let claiming = Library.outcome { () async throws(LibraryError) in
            try await claimStore(sha256, token, unless: remembered.again)
        }
        let arriving = await Library.outcome { () async throws(LibraryError) in try await arrive(adopt) }
        switch (arriving, await claiming) {
        case (.success(let arrival), .success(let known)):
            reach(.afterStaging)
            return try await ingest(arrival, known: known, token: token, remembered, originalFilename: originalFilename)
        case (.success(let arrival), .failure(let error)):
            await discard(arrival.staged)
            throw error
        case (.failure, .success(let known?)):
            // The bytes were whole when hashed and are in the library already: what failed to
            // stage them again is no failure of the upload's.
            return ImportResult(asset: known, isDuplicate: true)
        case (.failure(let error), .success(nil)):
            await releaseClaim(token)
            throw error
        case (.failure(let error), .failure):
            throw error
        }
    }

    /// A staged file and its first bytes, read in the hop that staged it.
    struct Arrival: Sendable {
        let staged: StagedFile
        /// The bytes a format is sniffed from; every later step is given the format they say.
        let header: [UInt8]
        /// The length of the movie at the end of a motion photo.
        let movieLength: Int?

        /// Reads the header and a motion photo's movie from one opening of the file. An empty
        /// file is refused here, before anything is claimed for it.
        init(_ staged: StagedFile) throws(LibraryError) {
            guard staged.size > 0 else { throw LibraryError(.empty, "The file is empty.") }
            self.staged = staged
            guard let file = FileHandle(forReadingAtPath: staged.path), let read = try? file.read(upToCount: ImageFormat.sniffLength)
            else { throw LibraryError(.io, "The staged file cannot be read.") }
            defer { try? file.close() }
            header = Array(read)
            movieLength = ImageFormat.sniff(header) != nil ? Library.embeddedMovieLength(file) : nil
        }
    }

    /// Stages a file with `stage` on this part's lane and reads its first bytes in the same hop.
    func arrive(_ stage: @escaping @Sendable () throws(LibraryError) -> StagedFile) async throws(LibraryError) -> Arrival {
        try await lane.run { [staging] () throws(LibraryError) -> Arrival in
            let staged = try stage()
            do throws(LibraryError) {
                return try Arrival(staged)
            } catch {
                staging.discard(staged)
                throw error
            }
        }
    }

    /// Whatever the outcome, the staged copy goes: into the blob store, or away. `livePhotoOf`
    /// names the still whose motion this movie is (a motion photo's own movie). Four hops after
    /// staging: the write that finds the bytes known or claims their store, then those of
    /// `ingest(_:known:…)`.
    func ingest(
        _ arrival: Arrival, originalFilename: String?, source: AssetSource, saveToCameraRoll: Bool, livePhotoOf: String? = nil,
        owner: Owner
    ) async throws(LibraryError) -> ImportResult {
        reach(.afterStaging)
        let token = Library.newID()
        let remembered = Remembered(
            hash: arrival.staged.hash, source: source, saveToCameraRoll: saveToCameraRoll, livePhotoOf: livePhotoOf, owner: owner)
        let known: Asset?
        do throws(LibraryError) {
            known = try await claimStore(arrival.staged.hash, token, unless: remembered.again)
        } catch {
            await discard(arrival.staged)
            throw error
        }
        return try await ingest(arrival, known: known, token: token, remembered, originalFilename: originalFilename)
    }

    /// An import whose store `token` claimed, unless its bytes are `known` already: two hops,
    /// the decode beside the blob's put (both read the staged file, and the last to end
    /// discards it), then the row's commit in a short transaction.
    private func ingest(
        _ arrival: Arrival, known: Asset?, token: String, _ remembered: Remembered, originalFilename: String?
    ) async throws(LibraryError) -> ImportResult {
        let staged = arrival.staged
        if let known {
            await discard(staged)
            return ImportResult(asset: known, isDuplicate: true)
        }
        do {
            return try await storeAndCommit(arrival, token: token, remembered, originalFilename: originalFilename)
        } catch {
            // Once stored, the staged file is gone already and this finds nothing to remove.
            await discard(staged)
            throw error
        }
    }

    private func storeAndCommit(
        _ arrival: Arrival, token: String, _ remembered: Remembered, originalFilename: String?
    ) async throws(LibraryError) -> ImportResult {
        let staged = arrival.staged
        let readers = StagedReaders(staged, in: staging, readers: 2)
        async let storing = Library.outcome { () async throws(LibraryError) in
            try await blobCall { [blobs] () throws(StorageError) in
                defer { readers.done() }
                try blobs.put(staged)
            }
        }
        let analysing = await Library.outcome { () async throws(LibraryError) in try await analyse(arrival, then: readers.done) }
        let analysis: Analysis
        switch (analysing, await storing) {
        case (.success(let found), .success): analysis = found
        case (.failure(let error), .success):
            // Refused bytes are not kept, not even until collection.
            await unstore(staged.hash, claimedAs: token)
            throw error
        case (_, .failure(let error)):
            await releaseClaim(token)
            throw error
        }
        let (source, livePhotoOf, saveToCameraRoll) = (remembered.source, remembered.livePhotoOf, remembered.saveToCameraRoll)
        let id = Library.newID()
        let now = Library.timestamp()
        let draft = AssetDraft(
            id: id, staged: staged, analysis: analysis, originalFilename: originalFilename.flatMap(PortableFilename.kept),
            source: source, unsaved: source == .camera && !saveToCameraRoll, importedAt: now, livePhotoOf: livePhotoOf,
            owner: remembered.owner,
            placeLookup: await geocoder.lookUp(latitude: analysis.exif.latitude, longitude: analysis.exif.longitude))

        // A crash between the blob and its row leaves an orphan blob, which collection removes.
        // Another import of the same bytes may have committed since the claim: its asset is the answer.
        let existing: Asset? = try await commitClaimed(staged.hash, token) { connection throws(StorageError) -> Asset? in
            if let existing = try remembered.again(connection) { return existing }
            try draft.insert(into: connection)
            if livePhotoOf == nil, let identifier = analysis.contentIdentifier {
                try LivePhoto.pair(id, analysis.mediaType, identifier, owner: remembered.owner, connection)
            }
            if saveToCameraRoll { try Library.addToCameraRoll(id, of: remembered.owner, connection: connection, at: now) }
            return nil
        }
        if let existing { return ImportResult(asset: existing, isDuplicate: true) }
        reach(.afterDatabaseCommit)
        // The row is what the draft says, unless a pairing or a motion photo's movie named
        // another asset in it since: only then is it read back.
        var asset = draft.asset
        asset.inCameraRoll = saveToCameraRoll
        if let length = arrival.movieLength {
            await importEmbeddedMovie(of: asset, length: length)
            asset = try await catalog.asset(id, owner: nil)
        } else if analysis.contentIdentifier != nil {
            asset = try await catalog.asset(id, owner: nil)
        }
        catalog.remember(asset)
        return ImportResult(asset: asset, isDuplicate: false)
    }

    /// The asset already holding an import's bytes, brought back into view by it: out of the
    /// trash, and into the library or the Camera Roll as the import asks (or made the motion of
    /// `livePhotoOf`, if it is nobody's yet).
    struct Remembered: Sendable {
        let hash: String
        let source: AssetSource
        let saveToCameraRoll: Bool
        let livePhotoOf: String?
        let owner: Owner

        /// In a write transaction: the asset as it is now, or nil when its owner has no asset of
        /// the bytes (another person's is theirs).
        func again(_ connection: any SQLConnection) throws(StorageError) -> Asset? {
            guard
                let id = try connection.query("SELECT id FROM assets WHERE blob_hash = ? AND owner_id = ?", [hash, owner.id]).first?
                    .text("id")
            else {
                return nil
            }
            try connection.run("UPDATE assets SET trashed_at = NULL WHERE id = ?", [id])
            if source != .camera { try connection.run("UPDATE assets SET unsaved = FALSE WHERE id = ?", [id]) }
            if saveToCameraRoll { try Library.addToCameraRoll(id, of: owner, connection: connection, at: Library.timestamp()) }
            if let livePhotoOf {
                try connection.run("UPDATE assets SET live_photo_of = ? WHERE id = ? AND live_photo_of IS NULL", [livePhotoOf, id])
            }
            return try Catalog.asset(id, connection)
        }
    }

    /// What the bytes are, learnt by decoding them: the probe, and the import-time derivatives
    /// whose making proves the file decodes to its end, kept in the derivative cache in the
    /// same hop, which calls `finished` once nothing reads the file any more.
    private func analyse(_ arrival: Arrival, then finished: @escaping @Sendable () -> Void) async throws(LibraryError) -> Analysis {
        let path = arrival.staged.path
        if let format = ImageFormat.sniff(arrival.header) {
            return try await analyseImage(path, hash: arrival.staged.hash, format: format, then: finished)
        }
        if let container = ContainerFormat.sniff(arrival.header) {
            return try await analyseMovie(path, hash: arrival.staged.hash, container: container, then: finished)
        }
        throw LibraryError(
            .unsupportedType,
            "The file is not a supported photo or video (JPEG, PNG, WebP, GIF, HEIF, AVIF, TIFF, MP4, MOV, WebM, MKV, AVI).")
    }

    private func analyseImage(
        _ path: String, hash: String, format: ImageFormat, then finished: @escaping @Sendable () -> Void
    ) async throws(LibraryError) -> Analysis {
        var requests = Library.thumbnailRequests
        var keys = DerivativeKey.thumbnailSizes.map { DerivativeKey.thumbnail($0) }
        if let box = options.importDisplayBox {
            let request = Library.displayRequest(format: .image(format), box: box, fit: .contain, crop: nil)
            requests.append(request)
            keys.append(DerivativeKey.display(box: box, fit: .contain, edit: nil, encoding: request.encoding))
        }
        let info = try await firstDecode(path, format: format, requests, keeping: keys, of: hash, then: finished)
        return Analysis(
            mediaType: .image, format: .image(info.format), mimeType: info.format.mimeType,
            width: info.width, height: info.height, duration: nil, orientation: info.orientation,
            captureDate: info.captureDate, cameraMake: info.cameraMake, cameraModel: info.cameraModel,
            hasGPS: info.hasGPS, isScreenshot: info.isScreenshot, exif: info.exif, browserPlayable: nil,
            contentIdentifier: LivePhoto.identifier(info.contentIdentifier))
    }

    /// The decode that decides whether an image is accepted (`ImportDecoder`): in a child
    /// process for the formats whose decoders may abort, else on this part's lane. What it
    /// renders is kept as `keys` of the original `hash`, in the decode's hop when it runs here.
    private func firstDecode(
        _ path: String, format: ImageFormat, _ requests: [RenderRequest], keeping keys: [String], of hash: String,
        then finished: @escaping @Sendable () -> Void
    ) async throws(LibraryError) -> ImageInfo {
        let log = options.log
        let subject = "decoding an image to import"
        var apart: ImportDecoder.Apart?
        if ImportDecoder.formatsDecodedApart.contains(format), let decoder = options.imageDecoder {
            do throws(ImagingError) {
                apart = try await ImportDecoder.decodeApart(
                    decoder, path, requests, maxPixels: options.maxPixels, outputPrefix: staging.temporaryPath(suffix: ".decoded"))
            } catch {
                throw Library.reported(error, subject, log)
            }
        }
        // The lane's jobs hold the cache, never a part: a job its thread has not let go of yet
        // would keep the library's work folder (and its lock) past a command line's exit.
        return try await lane.run { [imaging, cache = derivatives.cache, apart] () throws(LibraryError) -> ImageInfo in
            defer { finished() }
            do throws(ImagingError) {
                // A child's outputs are read back here; else the decode is made here, of the
                // format sniffed from the header the import read: no part of it reads that again.
                let decoded =
                    if let apart { (info: apart.info, outputs: try apart.collect()) } else {
                        try ImportDecoder.decode(imaging, ImageFile(path, format: format), requests)
                    }
                cache.keep(zip(keys, decoded.outputs.map(\.data)), of: hash)
                return decoded.info
            } catch {
                throw Library.reported(error, subject, log)
            }
        }
    }

    private func analyseMovie(
        _ path: String, hash: String, container: ContainerFormat, then finished: @escaping @Sendable () -> Void
    ) async throws(LibraryError) -> Analysis {
        let info: VideoInfo
        do throws(VideoError) {
            info = try await options.video.probe(path, format: container)
        } catch {
            throw Library.reported(error, "probing a movie to import", options.log)
        }
        let poster = try await derivatives.makePoster(path, container: container)
        let strip = await mediaJobs.importedScrubStrip(path, container: container)
        let log = options.log
        try await lane.run { [imaging, cache = derivatives.cache] () throws(LibraryError) in
            defer {
                unlink(poster)
                finished()
            }
            let bytes = try Library.read(poster)
            let thumbnails: [RenderedImage]
            do throws(ImagingError) {
                thumbnails = try imaging.render(Derivatives.poster(poster), Library.thumbnailRequests)
            } catch {
                throw Library.reported(error, "a movie's thumbnails", log)
            }
            let made =
                [(DerivativeKey.poster, bytes)] + (strip.map { [(DerivativeKey.scrubStrip, $0)] } ?? [])
                + zip(DerivativeKey.thumbnailSizes, thumbnails).map { (DerivativeKey.thumbnail($0), $1.data) }
            cache.keep(made, of: hash)
        }
        return Analysis(
            mediaType: .movie, format: .movie(container), mimeType: container.mimeType,
            width: info.width, height: info.height, duration: info.duration, orientation: 1,
            captureDate: info.creationDate, cameraMake: nil, cameraModel: nil, hasGPS: info.latitude != nil,
            exif: ExifDetails(latitude: info.latitude, longitude: info.longitude), captureFrameRate: info.captureFrameRate,
            browserPlayable: info.isBrowserPlayable, contentIdentifier: LivePhoto.identifier(info.contentIdentifier))
    }
}

extension Library {
    /// The outcome of `body` as a value: for work run beside other work (`async let`), which
    /// would widen a typed error to `any Error`.
    static func outcome<T: Sendable>(_ body: () async throws(LibraryError) -> T) async -> Result<T, LibraryError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

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
    /// A photo's lens, exposure and location; a movie's location alone (its container's).
    var exif = ExifDetails()
    var captureFrameRate: Double? = nil
    var browserPlayable: Bool?
    /// The Live Photo content identifier, as `LivePhoto.identifier` accepts it.
    var contentIdentifier: String?
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
    var owner: Owner
    /// Its place, when it has a position and the gazetteer could be read.
    var placeLookup: PlaceLookup?

    /// The new asset: what analysis found, as the row is inserted.
    var asset: Asset {
        Asset(
            id: id, mediaType: analysis.mediaType, blobHash: staged.hash, byteSize: staged.size, format: analysis.format,
            mimeType: analysis.mimeType, originalFilename: originalFilename, width: analysis.width, height: analysis.height,
            duration: analysis.duration, orientation: analysis.orientation, captureDate: analysis.captureDate,
            cameraMake: analysis.cameraMake, cameraModel: analysis.cameraModel, hasGPS: analysis.hasGPS, isScreenshot: isScreenshot,
            exif: analysis.exif, place: placeLookup?.place, captureFrameRate: analysis.captureFrameRate, source: source, isUnsaved: unsaved,
            importDate: importedAt,
            isFavorite: false, trashedDate: nil, inCameraRoll: false, edit: nil, isBrowserPlayable: analysis.browserPlayable,
            livePhotoMovie: nil, livePhotoStill: livePhotoOf, owner: owner)
    }

    func insert(into connection: any SQLConnection) throws(StorageError) {
        // A camera's clock may say 30 February or hour 25: that stays the camera's words
        // (capture_date), never an order that PostgreSQL would refuse and SQLite read otherwise.
        let captured = analysis.captureDate.map { String($0.prefix(19)) }.flatMap { Library.isMoment($0) ? $0 : nil }
        let sortDate = captured ?? String(importedAt.prefix(19))
        try connection.insert(
            asset, into: "assets",
            adding: [
                ("sort_date", sortDate), ("content_identifier", analysis.contentIdentifier), ("place_words", placeLookup?.place?.words),
                ("place_edition", placeLookup.map { _ in Gazetteer.edition }),
            ])
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
