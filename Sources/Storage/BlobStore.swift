public import Foundation

/// Content-addressed files: `root/aa/bb/<sha256>`. A blob is written to a temp file, fsynced,
/// renamed into place and its folder fsynced, so a path that exists is always a complete blob.
/// The store never says which assets use a blob; the database does.
public struct BlobStore: Sendable {
    public let root: String
    /// Where blobs are staged; on the same file system as `root` so that rename is atomic.
    public let temporaryDirectory: String

    public init(root: String, temporaryDirectory: String) throws(StorageError) {
        self.root = root
        self.temporaryDirectory = temporaryDirectory
        try FileIO.makeDirectories(root)
        try FileIO.makeDirectories(temporaryDirectory)
    }

    /// A file in the temp folder, hashed and fsynced, not yet in the store.
    public struct Staged: Sendable {
        public let path: String
        public let hash: String
        public let size: Int
    }

    public func path(for hash: String) -> String {
        precondition(Self.isHash(hash), "not a SHA-256 hex digest")
        let chars = Array(hash)
        return "\(root)/\(String(chars[0..<2]))/\(String(chars[2..<4]))/\(hash)"
    }

    public func contains(_ hash: String) -> Bool {
        Self.isHash(hash) && FileManager.default.fileExists(atPath: path(for: hash))
    }

    /// A new, empty, private file in the temp folder for the caller to fill.
    public func makeTemporaryFile(suffix: String = "") throws(StorageError) -> (path: String, fd: Int32) {
        let path = "\(temporaryDirectory)/\(UUID().uuidString.lowercased())\(suffix)"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileIO.error("create temp file") }
        return (path, fd)
    }

    /// Copies `source` into the temp folder while hashing it, then fsyncs the copy. Reading the
    /// source once serves both, and later steps only ever touch our copy.
    public func stage(copying source: String, maxBytes: Int = .max) throws(StorageError) -> Staged {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileIO.error("open") }
        defer { close(input) }
        let (path, output) = try makeTemporaryFile()
        do throws(StorageError) {
            defer { close(output) }
            let (hash, size) = try Self.hash(input, copyingTo: output, maxBytes: maxBytes)
            guard fsync(output) == 0 else { throw FileIO.error("fsync") }
            return Staged(path: path, hash: hash, size: size)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Hashes a file that is already in the temp folder (an upload streamed there) and fsyncs it.
    public func stage(adopting path: String) throws(StorageError) -> Staged {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        let (hash, size) = try Self.hash(fd, copyingTo: nil, maxBytes: .max)
        guard fsync(fd) == 0 else { throw FileIO.error("fsync") }
        return Staged(path: path, hash: hash, size: size)
    }

    /// Reads `input` to its end, hashing it and, when given, writing it to `output`.
    private static func hash(_ input: Int32, copyingTo output: Int32?, maxBytes: Int) throws(StorageError) -> (String, Int) {
        let hasher = SHA256()
        var size = 0
        try FileIO.readChunks(input) { chunk throws(StorageError) in
            size += chunk.count
            guard size <= maxBytes else { throw StorageError(.tooLarge, "The file is larger than the limit.") }
            hasher.update(chunk)
            if let output { try FileIO.writeAll(output, chunk) }
        }
        return (hasher.finish(), size)
    }

    /// Moves a staged file into the store. If the blob is already there the copy is dropped:
    /// the same hash means the same bytes.
    @discardableResult
    public func commit(_ staged: Staged) throws(StorageError) -> String {
        let destination = path(for: staged.hash)
        if FileManager.default.fileExists(atPath: destination) {
            unlink(staged.path)
            return destination
        }
        let folder = (destination as NSString).deletingLastPathComponent
        try FileIO.makeDirectories(folder)
        // Read-only, and for the owner alone: nothing of ours writes to an original again.
        chmod(staged.path, 0o400)
        guard rename(staged.path, destination) == 0 else { throw FileIO.error("rename") }
        try FileIO.fsyncDirectory(folder)
        return destination
    }

    public func discard(_ staged: Staged) {
        unlink(staged.path)
    }

    /// Deletes a blob; the caller has made sure no row refers to it.
    public func remove(_ hash: String) throws(StorageError) {
        let path = path(for: hash)
        guard unlink(path) == 0 || errno == ENOENT else { throw FileIO.error("delete") }
    }

    /// Every hash in the store, with the file's last change, for garbage collection.
    public func allBlobs() -> [(hash: String, modified: Date)] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var result: [(String, Date)] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard Self.isHash(name), let attributes = enumerator.fileAttributes,
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            result.append((name, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        return result
    }

    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
