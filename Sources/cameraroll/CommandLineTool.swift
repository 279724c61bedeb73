import Credentials
import Foundation
import HTTPServer
import ImagePicker
import PhotoLibrary
import PostgreSQL
import S3
import Storage
import Video

/// `cameraroll [GLOBAL OPTIONS] COMMAND [OPTIONS]`: reads the program's options wherever they
/// are (`GlobalOptions`), picks the command and turns its outcome into an exit status (0 done, 1
/// something was refused or failed, 2 the command line was wrong).
enum CommandLineTool {
    static func run(_ words: [String]) async -> Int32 {
        let (leading, name, rest) = GlobalOptions.split(words)
        // Not for people: the child process an import's first decode of a HEIF or AVIF runs in.
        // Its words (a file's path among them) are never options.
        if name == ImportDecoder.command { return ImportDecoder.childMain(rest) }
        let before: Arguments
        do throws(UsageError) {
            before = try Arguments(leading, valued: GlobalOptions.valued)
            try before.allowOnly(GlobalOptions.names)
        } catch {
            Terminal.error("cameraroll: \(error.message) Try 'cameraroll help'.")
            return 2
        }
        guard let name, name != "help", name != "-h", !before.flag("help") else {
            Terminal.out(HelpText.overview)
            // No command and no ask for help is a wrong command line, answered with the help.
            return name == nil && !before.flag("help") ? 2 : 0
        }
        guard let command = Command.named(name) else {
            Terminal.error("cameraroll: unknown command '\(name)'. Try 'cameraroll help'.")
            return 2
        }
        let arguments: Arguments
        let context: Context
        do throws(UsageError) {
            let own = try Arguments(rest, valued: command.valued.union(GlobalOptions.valued))
            let options = try GlobalOptions([before, own])
            if options.help {
                Terminal.out(HelpText.overview)
                return 0
            }
            arguments = own.removing(GlobalOptions.names)
            context = try Context(options)
        } catch {
            Terminal.error("cameraroll \(name): \(error.message)")
            return 2
        }
        do {
            return try await command.run(arguments, context)
        } catch let error as HTTPError {
            Terminal.error("cameraroll \(name): \(error.message)")
            return 1
        } catch let error as PickerError {
            Terminal.error("cameraroll \(name): \(error.message)")
            return 1
        } catch let error as UsageError {
            Terminal.error("cameraroll \(name): \(error.message)")
            return 2
        } catch let error as LibraryError {
            Terminal.error("cameraroll \(name): \(error.code): \(error.message)")
            return 1
        } catch {
            Terminal.error("cameraroll \(name): \(error)")
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

    /// Where the people and the allowed apps are: the data folder's files, or with
    /// `--database` the records every server over that database shares.
    func credentials() async throws -> (users: UserAccounts, apps: AllowedApps) {
        guard let database else {
            let root = URL(fileURLWithPath: folder.root)
            return (UserAccounts(dataFolder: root), AllowedApps(dataFolder: root))
        }
        let metadata: PostgresDatabase
        do {
            metadata = try await PostgresDatabase(url: database, migrations: LibrarySchema.postgreSQL)
        } catch {
            throw LibraryError(error)
        }
        let shared = try await SharedCredentials.open(database: metadata, following: false)
        return (UserAccounts(shared: shared), AllowedApps(shared: shared))
    }

    /// Whose library a command works in: the person `name` names, or without one the first
    /// admin (the owner, `Owner.first` before anyone has a password).
    func owner(named name: String?) async throws -> Owner {
        let users = try await credentials().users
        guard let name else { return try users.firstAdmin().map { Owner(id: $0.id) } ?? .first }
        guard let user = try users.user(named: name) else { throw UsageError("Nobody here is called \(name); see cameraroll users list.") }
        return Owner(id: user.id)
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

extension Context {
    /// Where the program's options say the library is.
    init(_ options: GlobalOptions) throws(UsageError) {
        if let database = options.database, !Self.isPostgreSQL(database) {
            throw UsageError("--database takes a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE).")
        }
        var bucket: S3Bucket?
        if let storage = options.storage {
            do throws(S3Bucket.ConfigurationError) {
                bucket = try S3Bucket.from(url: storage, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw UsageError(error.message)
            }
        }
        self.init(folder: options.data.map(DataFolder.init) ?? DataFolder.standard(), database: options.database, bucket: bucket)
    }
}
