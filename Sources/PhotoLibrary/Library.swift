import Executors
public import Foundation
import Imaging
public import Storage
import UTCTime
public import Video
public import Vocabulary

/// The photo library: originals stored untouched in a blob store, their metadata in a SQL
/// database, derivatives made from them on demand and cached on this machine. One value serves
/// the whole program; it is safe to share. By default both stores are the data folder's own
/// (SQLite and files).
///
/// Its work is split by kind, each part owning its state and its executor lane, and callers
/// talk to the parts: `catalog` (assets, albums, the trash, listings), `derivatives`
/// (thumbnails, display sizes, exports), `mediaJobs` (video renditions, streams, scrub strips),
/// `ingest` (originals in and out), `uploads` (resumable uploads) and `downloads` (archives).
/// Their blocking work never runs on a thread of the cooperative pool or of the server.
public final class Library: FileWorking {
    public struct Options: Sendable {
        /// The most pixels an image may have.
        public var maxPixels = Imaging.defaultMaxPixels
        /// The largest original accepted, in bytes.
        public var maxFileBytes = 4 << 30
        /// The derivative cache is trimmed, oldest first, past this many bytes.
        public var derivedCacheBytes = 2 << 30
        /// Image decodes running at once; libvips threads inside each one too.
        public var imageWorkers = max(2, ProcessInfo.processInfo.activeProcessorCount)
        public var video = VideoTools()
        /// A display size made at import from the same decode as the thumbnails, so that the
        /// first look on a phone is served from the cache (nil: made on first request only).
        public var importDisplayBox: PixelSize?
        /// Unsaved camera captures are deleted after this long.
        public var unsavedRetention: TimeInterval = 7 * 24 * 3600
        /// A named point in the import path where the process dies at once, for crash tests.
        public var crashPoint: ImportStep?
        /// The program an import's first decode of a HEIF or AVIF runs in (`ImportDecoder`); nil
        /// decodes in this process, for tests and tools that trust their files.
        public var imageDecoder: ImageDecoderCommand?
        /// How long a server's claim on a rendition job lasts without renewal (its worker renews
        /// it every third of that while ffmpeg runs): a server that dies with a job leaves it to
        /// another this long after its last renewal. Only for libraries servers share.
        public var renditionLease: TimeInterval = 30
        /// A resumable upload nobody adds to for this long is deleted, bytes and all; so is the
        /// outcome of a finished one.
        public var uploadExpiry: TimeInterval = 24 * 3600
        /// Resumable uploads one client may have open at once.
        public var openUploadsPerClient = 64
        /// How far a resumable upload's counted bytes may run ahead of the disk.
        public var uploadCheckpoint = UploadCheckpoint()
        /// Tesseract, which reads the words in photos (`WordReader`); nil reads none.
        public var textReader: String? = "/usr/bin/tesseract"
        /// Where what a failing ffmpeg or ffprobe said goes: for the operator, never for clients.
        public var log: @Sendable (String) -> Void = { _ in }

        public init() {}
    }

    /// When a piece of a resumable upload is fsynced before it is counted: once `bytes` or
    /// `seconds` have gone by since the last fsynced one, and always the last piece. The pieces in
    /// between are counted once written: they outlive the server (a kill, a crash, a restart) but
    /// not the machine, and after a restart of the machine the upload goes back to its last
    /// fsynced piece, for the client (who asks where it is) to send the rest again. An fsync each
    /// 8 MiB piece made a large upload wait on the disk far more than on the network.
    public struct UploadCheckpoint: Sendable {
        public var bytes: Int
        public var seconds: TimeInterval

        public init(bytes: Int = 256 << 20, seconds: TimeInterval = 5) {
            self.bytes = bytes
            self.seconds = seconds
        }
    }

    /// Points in an import, in order, where a crash test may stop the process.
    public enum ImportStep: String, Sendable, CaseIterable {
        case afterStaging = "after-staging"
        case afterBlobCommit = "after-blob-commit"
        case afterDatabaseCommit = "after-database-commit"
    }

    public let folder: DataFolder
    public let options: Options
    /// Where the rows are; servers sharing the library keep what else they share there too
    /// (sign-in, see Credentials.SharedCredentials).
    public let database: any SQLDatabase
    public let catalog: Catalog
    public let derivatives: Derivatives
    public let mediaJobs: MediaJobs
    public let ingest: Ingest
    public let uploads: Uploads
    public let downloads: Downloads
    public let geocoder: Geocoder
    public let wordReader: WordReader
    let stores: LibraryStores
    /// Reading originals for export and checks.
    let lane: BlockingExecutor<Void>

    /// Opens (or creates) the library in `folder`, running any pending migrations and clearing
    /// what crashed processes left in the temp folder. The folder is its owner's alone (0700,
    /// files 0600), and one an earlier version left open to others is closed.
    public convenience init(folder: DataFolder, options: Options = Options()) throws(LibraryError) {
        do {
            // In a folder an earlier version left open, closing the root alone keeps everything
            // below it from other accounts; the three folders beside the database are closed
            // too, a stat each. Their contents keep their old modes: walking them would cost a
            // call per original and per derivative, at every start, for nothing the root does
            // not already give.
            for path in [folder.root, folder.blobs, folder.derived, folder.temporary] { try PrivateFolder.prepare(path) }
            let database = try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite)
            try self.init(
                folder: folder, database: database, blobs: try FileBlobStore(root: folder.blobs),
                partialUploads: try FilePartialUploads(root: folder.uploads), options: options)
        } catch let error as StorageError {
            throw LibraryError(error)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(.io, "The library cannot be opened.")
        }
    }

    /// A library over the given database, blob store and store of partial uploads (both in a
    /// bucket when servers share the library, so that any of them can take an upload's next
    /// piece); `folder` holds what stays on this machine: its work folder and its derivative cache.
    public init(
        folder: DataFolder, database: any SQLDatabase, blobs: any BlobStore, partialUploads: any PartialUploadStore,
        options: Options = Options()
    ) throws(LibraryError) {
        self.folder = folder
        self.options = options
        self.database = database
        let imaging: Imaging
        do {
            for path in [folder.root, folder.derived, folder.temporary] { try PrivateFolder.prepare(path) }
            let workFolder = try WorkFolder.claim(in: folder.temporary)
            stores = LibraryStores(
                folder: folder, options: options, database: database, blobs: blobs, workFolder: workFolder,
                staging: try StagingArea(folder: workFolder.path), blobCalls: BlockingExecutor(name: "blobs", threads: 8))
            imaging = try Imaging(maxPixels: options.maxPixels)
        } catch let error as StorageError {
            throw LibraryError(error)
        } catch let error as ImagingError {
            throw LibraryError(error)
        } catch {
            throw LibraryError(.io, "The library cannot be opened.")
        }
        lane = BlockingExecutor(name: "originals", threads: 2)
        geocoder = Geocoder(stores)
        catalog = Catalog(stores, geocoder: geocoder)
        derivatives = Derivatives(stores, catalog: catalog, imaging: imaging)
        mediaJobs = MediaJobs(stores, catalog: catalog, derivatives: derivatives)
        ingest = Ingest(stores, catalog: catalog, derivatives: derivatives, mediaJobs: mediaJobs, geocoder: geocoder, imaging: imaging)
        uploads = Uploads(stores, ingest: ingest, partialUploads: partialUploads)
        downloads = Downloads(stores)
        wordReader = WordReader(stores, imaging: imaging)
    }

    /// Where this process's request bodies go: its own work folder, swept after a crash.
    public var temporaryFolder: String { stores.workFolder.path }

    /// A file on this machine with the original's bytes, unchanged since import.
    public func originalFile(of asset: Asset) async throws(LibraryError) -> String {
        try await original(of: asset)
    }

    /// The database's own check and, for every asset, that its blob is there.
    public func verify() async throws(LibraryError) -> [String] {
        let integrity = try await storage { () async throws(StorageError) in try await database.integrityProblems() }
        var problems = integrity.map { "database: \($0)" }
        let hashes = try await read { connection throws(StorageError) in
            try connection.query("SELECT id, blob_hash FROM assets").map { row throws(StorageError) in
                (try row.text("id"), try row.text("blob_hash"))
            }
        }
        let missing = try await files { [blobs] () throws(StorageError) in
            var missing: [(String, String)] = []
            for asset in hashes where try !blobs.contains(asset.1) { missing.append(asset) }
            return missing
        }
        for (id, _) in missing { problems.append("asset \(id): original missing") }
        return problems
    }

    /// Writes the database's log into its file; call before the process stops.
    public func flush() async throws(LibraryError) {
        try await storage { () async throws(StorageError) in try await database.flush() }
    }

    /// Brings the planner's statistics up to date (`SQLDatabase.optimize`); the server does it
    /// hourly, and `flush` at the end.
    public func optimize() async throws(LibraryError) {
        try await storage { () async throws(StorageError) in try await database.optimize() }
    }

    /// A video tool's failure as callers see it; what the tool said goes to `log` alone.
    static func reported(_ error: VideoError, _ subject: String, _ log: @Sendable (String) -> Void) -> LibraryError {
        log(logLine(subject, error.code.description, error.message, error.detail))
        return LibraryError(error)
    }

    /// The same for a decoder's refusal of an image.
    static func reported(_ error: ImagingError, _ subject: String, _ log: @Sendable (String) -> Void) -> LibraryError {
        log(logLine(subject, error.code.description, error.message, error.detail))
        return LibraryError(error)
    }

    /// A failure on one line: the detail's last lines, with control characters (a hostile file's
    /// words may carry terminal escapes) shown as `?`.
    private static func logLine(_ subject: String, _ code: String, _ message: String, _ detail: String?) -> String {
        let lines = detail?.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | ") ?? ""
        let shown = String(String.UnicodeScalarView(lines.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return "\(subject) failed: \(code): \(message)\(shown.isEmpty ? "" : " (\(shown))")"
    }

    /// A moment as the library stores it: ISO 8601 in UTC to the millisecond
    /// ("2026-12-03T23:49:21.123Z"), which sorts as text in time order: the text
    /// `Date.ISO8601FormatStyle(includingFractionalSeconds: true)` wrote, without its calendar.
    static func timestamp(_ date: Date = Date()) -> String {
        UTCTime(date).iso8601(milliseconds: true)
    }
}
