import Foundation
import Storage
import Synchronization

/// Files made from originals (thumbnails, display sizes, posters, renditions), kept under
/// `derived/aa/<hash>/<key>`. Anything here can be deleted at any time and is made again on
/// demand, so writes are atomic (temp + rename) but not fsynced. Like the originals they are
/// made from, they are their owner's alone (folders 0700, files 0600).
final class DerivativeCache: Sendable {
    let root: String
    let limit: Int
    /// What made the files (our recipes' version and the encoder's), part of every validator.
    let encoder: String
    /// Bytes stored, counted from a scan at start and kept up to date as files come and go.
    private let usage: Mutex<Int?> = Mutex(nil)
    /// Small files also kept in memory, so that serving a thumbnail needs no system call: the
    /// stat, open, read and close of one per request were a quarter of the server's time.
    private let remembered = Mutex(RememberedFiles())

    init(root: String, limit: Int, encoder: String) {
        self.root = root
        self.limit = limit
        self.encoder = encoder
    }

    func folder(for hash: String) -> String {
        "\(root)/\(hash.prefix(2))/\(hash)"
    }

    func path(for hash: String, key: String) -> String {
        "\(folder(for: hash))/\(key)"
    }

    /// A file in the cache, and the validator a client may revalidate it with.
    struct CachedFile {
        var path: String
        /// From the recipe (the original's hash, the key, which names the edit, size and
        /// encoding, and the encoder), not from the file: every server that makes or keeps the
        /// file gives the same validator, so a client's copy revalidates anywhere.
        var etag: String
        /// The file's bytes, for a small file.
        var bytes: [UInt8]?
    }

    /// The cached file if it is remembered in memory (and was seen on disk within the hour):
    /// no system call, for answering from a server's poll thread.
    func remembered(_ hash: String, _ key: String) -> CachedFile? {
        remembered.withLock { $0.file(RememberedFiles.Name(hash: hash, key: key), checkedAfter: time(nil) - 3600) }
    }

    /// The cached file, if present, from memory or the disk (so: on a blocking executor).
    /// Its time is refreshed (at most hourly, to spare the disk
    /// a write per request) so that trimming keeps what is used.
    ///
    /// A small file is answered from memory, and checked on disk again (and its time refreshed)
    /// once it has been remembered for an hour, so a file deleted or trimmed is made again.
    func lookup(_ hash: String, _ key: String) -> CachedFile? {
        let name = RememberedFiles.Name(hash: hash, key: key)
        let now = time(nil)
        if let file = remembered.withLock({ $0.file(name, checkedAfter: now - 3600) }) { return file }
        let path = path(for: hash, key: key)
        var info = stat()
        guard stat(path, &info) == 0 else {
            remembered.withLock { $0.forget(name) }
            return nil
        }
        if now - info.st_mtim.tv_sec > 3600 { utimes(path, nil) }
        var file = CachedFile(path: path, etag: etag(hash, key))
        if Int(info.st_size) <= RememberedFiles.largestFile,
            let bytes = RememberedFiles.read(path, inode: info.st_ino, size: Int(info.st_size))
        {
            file.bytes = bytes
            remembered.withLock { $0.remember(name, file, checked: now) }
        }
        return file
    }

    /// Stores bytes under a key.
    @discardableResult
    func store(_ hash: String, _ key: String, _ bytes: [UInt8]) throws(LibraryError) -> CachedFile {
        let destination = path(for: hash, key: key)
        do throws(StorageError) {
            try PrivateFile.replace(bytes, at: destination, .disposable)
        } catch {
            throw Self.storing(error)
        }
        add(bytes.count)
        return CachedFile(path: destination, etag: etag(hash, key))
    }

    private static func storing(_ error: StorageError) -> LibraryError {
        LibraryError(error.code == .noSpace ? .noSpace : .io, "A derivative could not be stored.")
    }

    func etag(_ hash: String, _ key: String) -> String {
        "\"\(hash.prefix(32))-\(key)-\(encoder)\""
    }

    /// Moves a finished file (a video rendition) into the cache.
    func adopt(_ hash: String, _ key: String, from path: String) throws(LibraryError) -> CachedFile {
        let destination = self.path(for: hash, key: key)
        do throws(StorageError) {
            try PrivateFolder.make(folder(for: hash), .disposable)
        } catch {
            throw Self.storing(error)
        }
        guard rename(path, destination) == 0 else { throw LibraryError(.io, "A derivative could not be stored.") }
        add(Self.size(of: destination))
        return CachedFile(path: destination, etag: etag(hash, key))
    }

    func removeAll(for hash: String) {
        remembered.withLock { $0.forget(hash: hash) }
        let folder = folder(for: hash)
        let bytes = Self.sizeOfTree(folder)
        try? FileManager.default.removeItem(atPath: folder)
        usage.withLock { if let total = $0 { $0 = max(0, total - bytes) } }
    }

    /// Every original hash that has derivatives.
    func hashes() -> [String] {
        let manager = FileManager.default
        let prefixes = (try? manager.contentsOfDirectory(atPath: root)) ?? []
        return prefixes.flatMap { prefix in (try? manager.contentsOfDirectory(atPath: "\(root)/\(prefix)")) ?? [] }
    }

    private func add(_ bytes: Int) {
        let total = usage.withLock { usage -> Int in
            let total = (usage ?? Self.sizeOfTree(root)) + bytes
            usage = total
            return total
        }
        if total > limit { trim() }
    }

    /// Deletes the least recently used files until the cache is at 90% of its limit.
    private func trim() {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: root) else { return }
        var files: [(path: String, date: Date, size: Int)] = []
        while let relative = enumerator.nextObject() as? String {
            guard let attributes = enumerator.fileAttributes, attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files.append(("\(root)/\(relative)", attributes[.modificationDate] as? Date ?? .distantPast, attributes[.size] as? Int ?? 0))
        }
        var total = files.reduce(0) { $0 + $1.size }
        for file in files.sorted(by: { $0.date < $1.date }) where total > limit * 9 / 10 {
            if unlink(file.path) == 0 { total -= file.size }
        }
        usage.withLock { $0 = total }
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    private static func sizeOfTree(_ path: String) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        while enumerator.nextObject() != nil {
            if let attributes = enumerator.fileAttributes, attributes[.type] as? FileAttributeType == .typeRegular {
                total += attributes[.size] as? Int ?? 0
            }
        }
        return total
    }
}
