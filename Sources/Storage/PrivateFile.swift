import Foundation

/// Files only their owner may read (a password hash, sign-in sessions, a private key, a cached
/// rendering, an exported original), replaced whole: a temp file created with mode 0600, filled,
/// renamed over the old one. A reader sees the old file or the new one, never half of either, and
/// nobody else can read it, not even for a moment.
public enum PrivateFile {
    public enum Durability: Sendable {
        /// fsynced before the rename, and the folder after it: the new file survives a power cut.
        case durable
        /// Neither (nor a new folder): for a cache, whose files are made again when a power cut
        /// loses them.
        case disposable
    }

    /// Replaces `destination` with `bytes`, making its folder (0700) if it is missing.
    public static func replace(_ bytes: [UInt8], at destination: String, _ durability: Durability = .durable) throws(StorageError) {
        try FileIO.makeDirectories((destination as NSString).deletingLastPathComponent, durability)
        try write(destination, durability) { descriptor throws(StorageError) in
            let written = bytes.withUnsafeBytes { bytes in Result { () throws(StorageError) in try FileIO.writeAll(descriptor, bytes) } }
            try written.get()
        }
    }

    /// Replaces `destination` with a durable copy of `source`. The folder must exist: it is the
    /// user's to make, not ours.
    public static func copy(_ source: String, to destination: String) throws(StorageError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileIO.error("open") }
        defer { close(input) }
        try write(destination, .durable) { output throws(StorageError) in
            try FileIO.readChunks(input) { chunk throws(StorageError) in try FileIO.writeAll(output, chunk) }
        }
    }

    private static func write(
        _ destination: String, _ durability: Durability, _ fill: (Int32) throws(StorageError) -> Void
    ) throws(StorageError) {
        let folder = (destination as NSString).deletingLastPathComponent
        let temporary = "\(destination).\(UUID().uuidString.lowercased()).part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileIO.error("create \((destination as NSString).lastPathComponent)") }
        do throws(StorageError) {
            defer { close(descriptor) }
            try fill(descriptor)
            if durability == .durable, fsync(descriptor) != 0 { throw FileIO.error("fsync") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination) == 0 else {
            let failure = FileIO.error("rename")
            unlink(temporary)
            throw failure
        }
        if durability == .durable { try FileIO.fsyncDirectory(folder.isEmpty ? "." : folder) }
    }
}
