import Digests
import Foundation

/// A process's folder for files on their way into a blob store: an upload streamed in, a copy
/// of a file being imported, a tool's output. Staging hashes and fsyncs a file, so what a blob
/// store is given is complete and named by its bytes.
public struct StagingArea: Sendable {
    public let folder: String

    public init(folder: String) throws(StorageError) {
        self.folder = folder
        try FileIO.makeDirectories(folder)
    }

    /// A new name in the folder, for a file another program makes (nothing is made here).
    public func temporaryPath(suffix: String = "") -> String {
        "\(folder)/\(UUID().uuidString.lowercased())\(suffix)"
    }

    /// A new, empty, private file in the folder for the caller to fill.
    public func makeTemporaryFile(suffix: String = "") throws(StorageError) -> (path: String, fd: Int32) {
        let path = temporaryPath(suffix: suffix)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileIO.error("create temp file") }
        return (path, fd)
    }

    /// Copies `source` (or the bytes `range` of it: a file of a form's body) into the folder
    /// while hashing it, then fsyncs the copy. Reading the source once serves both, and later
    /// steps only ever touch our copy.
    public func stage(copying source: String, range: Range<Int>? = nil, maxBytes: Int = .max) throws(StorageError) -> StagedFile {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileIO.error("open") }
        defer { close(input) }
        let (path, output) = try makeTemporaryFile()
        do throws(StorageError) {
            defer { close(output) }
            let (hash, size) = try Self.hash(input, range: range, copyingTo: output, maxBytes: maxBytes)
            guard fsync(output) == 0 else { throw FileIO.error("fsync") }
            return StagedFile(path: path, hash: hash, size: size)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Stages a file that is already in the folder (an upload streamed there): fsyncs it, and
    /// hashes it unless its SHA-256 is given (a server that hashed the body as it arrived).
    public func stage(adopting path: String, sha256: String? = nil) throws(StorageError) -> StagedFile {
        precondition(sha256.map(BlobHash.isValid) ?? true, "not a SHA-256 hex digest")
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        let hash: String
        let size: Int
        if let sha256 {
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw FileIO.error("stat") }
            (hash, size) = (sha256, Int(status.st_size))
        } else {
            (hash, size) = try Self.hash(fd, range: nil, copyingTo: nil, maxBytes: .max)
        }
        guard fsync(fd) == 0 else { throw FileIO.error("fsync") }
        return StagedFile(path: path, hash: hash, size: size)
    }

    /// Drops a staged file, stored or not (a blob store keeps its own name for the bytes).
    public func discard(_ staged: StagedFile) {
        unlink(staged.path)
    }

    /// Reads `input` to its end (or `range` of it), hashing it and, when given, writing it to `output`.
    private static func hash(_ input: Int32, range: Range<Int>?, copyingTo output: Int32?, maxBytes: Int) throws(StorageError)
        -> (String, Int)
    {
        let hasher = MessageDigest()
        var size = 0
        try FileIO.readChunks(input, in: range) { chunk throws(StorageError) in
            size += chunk.count
            guard size <= maxBytes else { throw StorageError(.tooLarge, "The file is larger than the limit.") }
            hasher.update(chunk)
            if let output { try FileIO.writeAll(output, chunk) }
        }
        return (hasher.finish(), size)
    }
}
