public import Foundation

/// Blobs as files on this machine: `root/aa/bb/<sha256>`. A staged file, fsynced already, is
/// linked into place and its folder fsynced, so a path that exists is always a complete blob;
/// the staging area must be on the same file system, for the link.
public struct FileBlobStore: BlobStore {
    public let root: String

    public init(root: String) throws(StorageError) {
        self.root = root
        try FileIO.makeDirectories(root)
    }

    public func path(for hash: String) -> String {
        precondition(BlobHash.isValid(hash), "not a SHA-256 hex digest")
        let chars = Array(hash)
        return "\(root)/\(String(chars[0..<2]))/\(String(chars[2..<4]))/\(hash)"
    }

    public func contains(_ hash: String) -> Bool {
        BlobHash.isValid(hash) && FileManager.default.fileExists(atPath: path(for: hash))
    }

    public func localFile(_ hash: String) throws(StorageError) -> String {
        guard contains(hash) else { throw StorageError(.notFound, "An original is missing from the library.") }
        return path(for: hash)
    }

    /// A blob already there is kept: the same hash means the same bytes. A link, not a rename,
    /// so that the staged name stays readable until its stager discards it.
    public func put(_ staged: StagedFile) throws(StorageError) {
        let destination = path(for: staged.hash)
        if FileManager.default.fileExists(atPath: destination) { return }
        let folder = (destination as NSString).deletingLastPathComponent
        try FileIO.makeDirectories(folder)
        // Read-only, and for the owner alone: nothing of ours writes to an original again.
        chmod(staged.path, 0o400)
        // Another put of the same bytes may have linked them since the look above.
        guard link(staged.path, destination) == 0 || errno == EEXIST else { throw FileIO.error("link") }
        try FileIO.fsyncDirectory(folder)
    }

    public func remove(_ hash: String) throws(StorageError) {
        let path = path(for: hash)
        guard unlink(path) == 0 || errno == ENOENT else { throw FileIO.error("delete") }
    }

    public func allBlobs() -> [(hash: String, modified: Date)] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var result: [(String, Date)] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard BlobHash.isValid(name), let attributes = enumerator.fileAttributes,
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            result.append((name, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        return result
    }
}
