import Foundation

/// Files only their owner may read (a password hash, sign-in sessions, a private key), replaced
/// whole: a temp file created with mode 0600, fsynced, renamed over the old one, and the folder
/// fsynced. A reader sees the old file or the new one, never half of either, and nobody else can
/// read it, not even for a moment.
public enum PrivateFile {
    public static func replace(_ bytes: [UInt8], at destination: String) throws(StorageError) {
        let folder = (destination as NSString).deletingLastPathComponent
        try FileIO.makeDirectories(folder)
        let temporary = "\(destination).\(UUID().uuidString.lowercased()).part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileIO.error("create \((temporary as NSString).lastPathComponent)") }
        do throws(StorageError) {
            defer { close(descriptor) }
            let written = bytes.withUnsafeBytes { bytes in Result { () throws(StorageError) in try FileIO.writeAll(descriptor, bytes) } }
            try written.get()
            guard fsync(descriptor) == 0 else { throw FileIO.error("fsync") }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination) == 0 else {
            let failure = FileIO.error("rename")
            unlink(temporary)
            throw failure
        }
        try FileIO.fsyncDirectory(folder)
    }
}
