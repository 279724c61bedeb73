public import Foundation

/// Where a library lives on disk: one folder holding the database, the originals, the
/// derivative cache and a temp folder on the same file system.
public struct DataFolder: Sendable {
    public let root: String

    /// A relative `root` is the current folder's: the folder and everything in it is known by
    /// its whole path from here on (and Foundation's path functions trap on some relative paths,
    /// "d" among them).
    public init(_ root: String) {
        let whole = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        self.root = (whole as NSString).standardizingPath
    }

    /// `$XDG_DATA_HOME/cameraroll`, else `~/.local/share/cameraroll`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DataFolder {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return DataFolder("\(xdg)/cameraroll")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return DataFolder("\(home)/.local/share/cameraroll")
    }

    public var database: String { "\(root)/library.sqlite" }
    public var blobs: String { "\(root)/blobs" }
    /// Thumbnails, display sizes, renditions: safe to delete, remade on demand.
    public var derived: String { "\(root)/derived" }
    public var temporary: String { "\(root)/tmp" }
    /// Resumable uploads still coming in, a file each (see Storage.FilePartialUploads).
    public var uploads: String { "\(root)/uploads" }
    /// Originals read from a blob store on another machine, kept here to decode and to send.
    public var originalsCache: String { "\(root)/originals-cache" }
    /// The certificate `serve` makes for HTTPS, and its key.
    public var tls: String { "\(root)/tls" }
}
