import Foundation

/// An exclusive lock on a file beside the data it guards, for read-change-write steps that the
/// server and the command line may take at the same moment. It makes the folder (its owner's
/// alone) when there is none yet.
enum FileLock {
    static func holding<T>(_ lock: URL, _ body: () throws(CredentialsError) -> T) throws(CredentialsError) -> T {
        try? FileManager.default.createDirectory(
            at: lock.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let descriptor = open(lock.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw CredentialsError(.writeFailed, "\(lock.lastPathComponent) could not be locked for a change.")
        }
        defer { close(descriptor) }
        return try body()
    }
}
