import Foundation

/// The uploads still coming in to a library on one machine: one file each, `root/<id>`, that
/// every piece extends in place, so a finished upload is imported without another copy of its
/// bytes. The root is on the data folder's file system, for the first piece to be renamed in.
///
/// A piece kept without `durably` is written, not fsynced: on this machine's disks an fsync
/// each 8 MiB piece cost more than sending it. The kernel is asked to start writing it out at
/// once, so a later durable piece waits only for what is still on its way.
public struct FilePartialUploads: PartialUploadStore {
    public let root: String
    /// This machine's boot, which names the cache pieces are left in; nil where the system does
    /// not tell one, and then every piece is kept durably.
    public let boot: String?

    public init(root: String, boot: String? = MachineBoot.current()) throws(StorageError) {
        self.root = root
        self.boot = boot
        try FileIO.makeDirectories(root)
    }

    private func path(_ upload: String) -> String {
        precondition(Self.isName(upload), "an upload id names a file of this folder")
        return "\(root)/\(upload)"
    }

    /// Ids are ours, but a file name is only ever made of one that cannot leave the folder.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || isalnum(Int32($0)) != 0 }
    }

    public func keep(_ staged: StagedPiece, upload: String, offset: Int, durably: Bool) throws(StorageError) -> KeptPiece {
        let path = path(upload)
        if offset == 0 {
            // Durable whatever is asked: a later fsync of the file would not keep its name.
            try FileIO.fsyncFile(staged.path)
            guard rename(staged.path, path) == 0 else { throw FileIO.error("rename") }
            try FileIO.fsyncDirectory(root)
            return KeptPiece(name: upload, cachedIn: nil)
        }
        let output = open(path, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { throw FileIO.error("open upload") }
        defer { close(output) }
        var info = stat()
        guard fstat(output, &info) == 0 else { throw FileIO.error("stat upload") }
        guard Int(info.st_size) >= offset else {
            throw StorageError(.notFound, "The bytes of an upload are missing.", detail: "\(upload) has \(info.st_size) of \(offset)")
        }
        // What a request the database never counted left past the offset goes first.
        guard ftruncate(output, off_t(offset)) == 0, lseek(output, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw FileIO.error("truncate upload")
        }
        let input = open(staged.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileIO.error("open piece") }
        defer { close(input) }
        let copied = try FileIO.copyRest(of: input, to: output)
        guard copied == staged.size else {
            throw StorageError(.io, "A file could not be read or written.", detail: "the piece changed after it was staged")
        }
        unlink(staged.path)
        guard !durably, let boot else {
            guard fsync(output) == 0 else { throw FileIO.error("fsync upload") }
            return KeptPiece(name: upload, cachedIn: nil)
        }
        FileIO.startWriting(output, from: offset, count: copied)
        return KeptPiece(name: upload, cachedIn: boot)
    }

    public func stillCached(_ boot: String) -> Bool { boot == self.boot }

    /// A second name for the upload's file, in `staging`: the import consumes that name, and
    /// the upload's own stays until its row says the import is done.
    public func assemble(upload: String, pieces: [UploadPiece], size: Int, in staging: StagingArea) throws(StorageError) -> String {
        let source = path(upload)
        let destination = "\(staging.folder)/\(UUID().uuidString.lowercased())"
        guard link(source, destination) == 0 else { throw FileIO.error("link upload") }
        var info = stat()
        guard stat(destination, &info) == 0, Int(info.st_size) >= size else {
            unlink(destination)
            throw StorageError(.notFound, "The bytes of an upload are missing.", detail: "\(upload) is short of \(size)")
        }
        guard Int(info.st_size) == size || truncate(destination, off_t(size)) == 0 else {
            unlink(destination)
            throw FileIO.error("truncate upload")
        }
        return destination
    }

    public func remove(upload: String) throws(StorageError) {
        guard unlink(path(upload)) == 0 || errno == ENOENT else { throw FileIO.error("delete upload") }
    }

    public func uploads() throws(StorageError) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter(Self.isName)
    }
}
