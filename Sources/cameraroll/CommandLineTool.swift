import Credentials
import Foundation
import HTTPServer
import ImagePicker
import PhotoLibrary
import PostgreSQL
import S3
import Storage
import Video

/// `cameraroll [--data DIR] [--database URL] [--storage s3://BUCKET] COMMAND ...`: picks the
/// command and turns its outcome into an exit status (0 done, 1 something was refused or failed,
/// 2 the command line was wrong).
enum CommandLineTool {
    static func run(_ words: [String]) async -> Int32 {
        var words = words
        var dataFolder: String?
        var database: String?
        var storage: String?
        while let first = words.first, first.hasPrefix("--") {
            words.removeFirst()
            if first == "--data", !words.isEmpty {
                dataFolder = words.removeFirst()
            } else if first.hasPrefix("--data=") {
                dataFolder = String(first.dropFirst("--data=".count))
            } else if first == "--database", !words.isEmpty {
                database = words.removeFirst()
            } else if first.hasPrefix("--database=") {
                database = String(first.dropFirst("--database=".count))
            } else if first == "--storage", !words.isEmpty {
                storage = words.removeFirst()
            } else if first.hasPrefix("--storage=") {
                storage = String(first.dropFirst("--storage=".count))
            } else if first == "--help" {
                words = ["help"]
            } else {
                Terminal.error("cameraroll: unknown option \(first). Try 'cameraroll help'.")
                return 2
            }
        }
        guard let command = words.first else {
            Terminal.out(HelpText.overview)
            return 2
        }
        if let database, !Context.isPostgreSQL(database) {
            Terminal.error("cameraroll: --database takes a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE).")
            return 2
        }
        var bucket: S3Bucket?
        if let storage {
            do throws(S3Bucket.ConfigurationError) {
                bucket = try S3Bucket.from(url: storage, environment: ProcessInfo.processInfo.environment)
            } catch {
                Terminal.error("cameraroll: \(error.message)")
                return 2
            }
        }
        let context = Context(folder: dataFolder.map(DataFolder.init) ?? DataFolder.standard(), database: database, bucket: bucket)
        let rest = Array(words.dropFirst())
        do {
            switch command {
            case "serve": return try await ServeCommand.run(rest, context)
            case "pick": return try await PickCommand.run(rest, context)
            case "import": return try await ImportCommand.run(rest, context)
            case "list": return try await ListCommand.run(rest, context)
            case "export": return try await ExportCommand.run(rest, context)
            case "trash", "restore", "delete", "gc": return try await MaintenanceCommand.run(command, rest, context)
            case "doctor": return await DoctorCommand.run(rest, context)
            // Not for people: the child process an import's first decode of a HEIF or AVIF runs in.
            case ImportDecoder.command: return ImportDecoder.childMain(rest)
            case "passwd": return try await PasswordCommand.run(rest, context)
            case "migrate": return try await MigrateCommand.run(rest, context)
            case "apps": return try await AppsCommand.run(rest, context)
            case "help", "-h":
                Terminal.out(HelpText.overview)
                return 0
            default:
                Terminal.error("cameraroll: unknown command '\(command)'. Try 'cameraroll help'.")
                return 2
            }
        } catch let error as HTTPError {
            Terminal.error("cameraroll \(command): \(error.message)")
            return 1
        } catch let error as PickerError {
            Terminal.error("cameraroll \(command): \(error.message)")
            return 1
        } catch let error as UsageError {
            Terminal.error("cameraroll \(command): \(error.message)")
            return 2
        } catch let error as LibraryError {
            Terminal.error("cameraroll \(command): \(error.code): \(error.message)")
            return 1
        } catch {
            Terminal.error("cameraroll \(command): \(error)")
            return 1
        }
    }
}

/// What every command gets: where the library is, and how to open it.
struct Context {
    let folder: DataFolder
    /// The PostgreSQL server holding the library's metadata, instead of the folder's SQLite file.
    let database: String?
    /// The bucket holding the originals, instead of the folder's `blobs`.
    let bucket: S3Bucket?

    static func isPostgreSQL(_ url: String) -> Bool {
        url.hasPrefix("postgresql://") || url.hasPrefix("postgres://")
    }

    /// ffmpeg and ffprobe, from `CAMERAROLL_FFMPEG` / `CAMERAROLL_FFPROBE` when set.
    var videoTools: VideoTools {
        let environment = ProcessInfo.processInfo.environment
        return VideoTools(
            ffmpeg: environment["CAMERAROLL_FFMPEG"] ?? "/usr/bin/ffmpeg",
            ffprobe: environment["CAMERAROLL_FFPROBE"] ?? "/usr/bin/ffprobe")
    }

    /// Where the owner's password and the allowed apps are: the data folder's files, or with
    /// `--database` the records every server over that database shares.
    func credentials() async throws -> (owner: OwnerAccount, apps: AllowedApps) {
        guard let database else {
            let root = URL(fileURLWithPath: folder.root)
            return (OwnerAccount(dataFolder: root), AllowedApps(dataFolder: root))
        }
        let metadata: PostgresDatabase
        do {
            metadata = try await PostgresDatabase(url: database, migrations: LibrarySchema.postgreSQL)
        } catch {
            throw LibraryError(error)
        }
        let shared = try await SharedCredentials.open(database: metadata, following: false)
        return (OwnerAccount(shared: shared), AllowedApps(shared: shared))
    }

    /// `log` gets what a failing ffmpeg or ffprobe said (the server's log; other commands
    /// print their own word on each failure).
    func openLibrary(log: @escaping @Sendable (String) -> Void = { _ in }) async throws(LibraryError) -> Library {
        var options = Library.Options()
        options.video = videoTools
        options.log = log
        options.imageDecoder = ImportDecoder.runningThisProgram
        // Crash tests set this to stop an import at a named step; see Tests/CommandLineTests.
        if let step = ProcessInfo.processInfo.environment["CAMERAROLL_CRASH_AT"] {
            options.crashPoint = Library.ImportStep(rawValue: step)
        }
        guard database != nil || bucket != nil else { return try Library(folder: folder, options: options) }
        let metadata: any SQLDatabase
        let blobs: any BlobStore
        let partialUploads: any PartialUploadStore
        do throws(StorageError) {
            if let database {
                metadata = try await PostgresDatabase(url: database, migrations: LibrarySchema.postgreSQL)
            } else {
                try PrivateFolder.prepare(folder.root)
                metadata = try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite)
            }
            if let bucket {
                let client = S3Client(bucket: bucket)
                blobs = try S3BlobStore(client: client, cacheFolder: folder.originalsCache)
                partialUploads = S3PartialUploads(client: client)
            } else {
                blobs = try FileBlobStore(root: folder.blobs)
                partialUploads = try FilePartialUploads(root: folder.uploads)
            }
        } catch {
            throw LibraryError(error)
        }
        return try Library(folder: folder, database: metadata, blobs: blobs, partialUploads: partialUploads, options: options)
    }
}
