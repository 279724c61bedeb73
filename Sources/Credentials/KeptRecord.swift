import Executors
import Foundation
import Storage
internal import Synchronization

/// A small text the credentials keep (the owner's password hash, the allowed apps): a file of
/// the data folder (`FileRecord`), or, when servers share a library, a row of its database
/// (`SharedCredentials.record`).
public protocol KeptRecord: Sendable {
    /// The text as it is now (nil when there is none), quickly enough for a request's gate:
    /// from memory, or a stat of a file that has not changed.
    func text() -> String?

    /// Names the version `text()` returns; it changes whenever the text does. nil without one.
    func stamp() -> String?

    /// Replaces the text with what `body` makes of it (nil removes it), taking turns with every
    /// other writer (servers and the command line), and returns `body`'s result. `body` runs
    /// off the cooperative pool, so it may be slow (scrypt).
    func change<T: Sendable>(_ body: @escaping @Sendable (String?) throws(CredentialsError) -> (String?, T)) async throws(CredentialsError)
        -> T

    /// Where the record is, in words for a person.
    var location: String { get }
}

/// A record in a file of its own, replaced whole on every change (readable by the owner only),
/// with a lock file beside it. The command line changes it while a server runs; the server sees
/// the change at its next look, by the file's stamp.
final class FileRecord: KeptRecord {
    let file: URL
    private let lock: URL
    private let cache = Mutex<(stamp: String?, text: String?)>((nil, nil))
    /// Where the file is read and written for a change: a thread of its own.
    private let disk = BlockingExecutor(name: "credentials", threads: 1)

    init(file: URL, lock: URL) {
        self.file = file
        self.lock = lock
    }

    var location: String { file.path }

    func text() -> String? {
        let stamp = stamp()
        return cache.withLock { cache in
            if cache.stamp != stamp {
                // An unreadable file reads as an empty text, which no reader takes for a good one.
                cache.text = stamp == nil ? nil : (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                cache.stamp = stamp
            }
            return cache.text
        }
    }

    /// The file's inode and change time: it is replaced whole, so both change with the text.
    /// Saved sessions carry this stamp of the password file, so its form stays as it was.
    func stamp() -> String? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return "\(info.st_ino)-\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    func change<T: Sendable>(_ body: @escaping @Sendable (String?) throws(CredentialsError) -> (String?, T)) async throws(CredentialsError)
        -> T
    {
        try await disk.run { [file, lock] () throws(CredentialsError) -> T in
            try FileLock.holding(lock) { () throws(CredentialsError) -> T in
                let (text, result) = try body(
                    FileManager.default.fileExists(atPath: file.path) ? (try? String(contentsOf: file, encoding: .utf8)) ?? "" : nil)
                do {
                    if let text {
                        try PrivateFile.replace(Array(text.utf8), at: file.path)
                    } else if FileManager.default.fileExists(atPath: file.path) {
                        try FileManager.default.removeItem(at: file)
                    }
                } catch {
                    throw CredentialsError(.writeFailed, "\(file.lastPathComponent) could not be saved.")
                }
                return result
            }
        }
    }
}
