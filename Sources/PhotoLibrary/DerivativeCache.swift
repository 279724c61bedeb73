import Foundation
import Memo
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
    /// Bytes stored: what a scan of the folder found, and what came and went since it began.
    /// Until a scan has ended there is no bound to keep, and stores never wait for one (cold,
    /// the scan of a 100,000-photo library's cache reads for most of a minute).
    private let usage = Mutex(Usage())

    private struct Usage {
        var scanned: Int?
        var since = 0
        var total: Int? { scanned.map { $0 + since } }
    }
    /// Small files also kept in memory, so that serving a thumbnail needs no system call: the
    /// stat, open, read and close of one per request were a quarter of the server's time.
    private let remembered = RememberedFiles()

    /// Keeps what an import made from the same decode (thumbnails, a display size, a poster),
    /// on the importer's lane, in the decode's own hop: a new original's first looks are then
    /// answered from memory. Made before the row is committed, for an import that may still
    /// fail: an entry is kept by the original's hash, and one no row names is collected.
    func keep(_ made: some Sequence<(String, [UInt8])>, of hash: String) {
        for (key, bytes) in made { _ = try? store(hash, key, bytes) }
    }

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
    struct CachedFile: Sendable {
        var path: String
        /// From the recipe (the original's hash, the key, which names the edit, size and
        /// encoding, and the encoder), not from the file: every server that makes or keeps the
        /// file gives the same validator, so a client's copy revalidates anywhere.
        var etag: String
        /// The file's bytes, for a small file.
        var kept: KeptBytes?
    }

    /// The cached file if it is remembered in memory (and was seen on disk within the hour):
    /// no system call, for answering from a server's poll thread.
    func remembered(_ hash: String, _ key: String) -> CachedFile? {
        remembered.file(RememberedFiles.Name(hash: hash, key: key), checkedAfter: time(nil) - 3600)
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
        if let file = remembered.file(name, checkedAfter: now - 3600) { return file }
        let path = path(for: hash, key: key)
        var info = stat()
        guard stat(path, &info) == 0 else {
            remembered.forget(name)
            return nil
        }
        if now - info.st_mtim.tv_sec > 3600 { utimes(path, nil) }
        var file = CachedFile(path: path, etag: etag(hash, key))
        if Int(info.st_size) <= RememberedFiles.largestFile,
            let bytes = RememberedFiles.read(path, inode: info.st_ino, size: Int(info.st_size))
        {
            file.kept = KeptBytes(bytes)
            remembered.remember(name, file, checked: now)
        }
        return file
    }

    /// Stores bytes under a key; a small file is kept in memory too.
    @discardableResult
    func store(_ hash: String, _ key: String, _ bytes: [UInt8]) throws(LibraryError) -> CachedFile {
        let destination = path(for: hash, key: key)
        do throws(StorageError) {
            try PrivateFile.replace(bytes, at: destination, .disposable)
        } catch {
            throw Self.storing(error)
        }
        if Self.isTrimmable(key) { add(bytes.count, at: destination) }
        var file = CachedFile(path: destination, etag: etag(hash, key))
        // What was just made is answered from memory, now and on the next request, as a file
        // looked up is: not written, then read back from the disk.
        if bytes.count <= RememberedFiles.largestFile {
            file.kept = KeptBytes(StableBytes(bytes))
            remembered.remember(RememberedFiles.Name(hash: hash, key: key), file, checked: time(nil))
        }
        return file
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
        if Self.isTrimmable(key) { add(Self.size(of: destination), at: destination) }
        return CachedFile(path: destination, etag: etag(hash, key))
    }

    func removeAll(for hash: String) {
        remembered.forget(hash: hash)
        let folder = folder(for: hash)
        let bytes = Self.sizeOfTree(folder)
        try? FileManager.default.removeItem(atPath: folder)
        usage.withLock { $0.since -= bytes }
    }

    /// Counts what the cache holds, so that it can be kept under its limit from then on: for
    /// the library to run once, in the background, when it opens. Files stored during the scan
    /// may be counted twice, which errs on the side of trimming early.
    func countUsage() {
        let found = Self.sizeOfTree(root)
        let total = usage.withLock { usage -> Int? in
            usage.scanned = found
            return usage.total
        }
        if let total, total > limit { trim() }
    }

    /// Every original hash that has derivatives.
    func hashes() -> [String] {
        let manager = FileManager.default
        let prefixes = (try? manager.contentsOfDirectory(atPath: root)) ?? []
        return prefixes.flatMap { prefix in (try? manager.contentsOfDirectory(atPath: "\(root)/\(prefix)")) ?? [] }
    }

    /// Counts a file just stored, trimming if the cache is past its limit: never that file,
    /// which its caller is about to serve.
    private func add(_ bytes: Int, at path: String) {
        let total = usage.withLock { usage -> Int? in
            usage.since += bytes
            return usage.total
        }
        if let total, total > limit { trim(keeping: path) }
    }

    /// Deletes the least recently used files until the cache is at 90% of its limit.
    private func trim(keeping kept: String? = nil) {
        var files: [(path: String, used: Double, size: Int)] = []
        Self.forEachFile(under: root) { path, info in
            files.append((path, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9, Int(info.st_size)))
        }
        var total = files.reduce(0) { $0 + $1.size }
        for file in files.sorted(by: { $0.used < $1.used }) where total > limit * 9 / 10 && file.path != kept {
            if unlink(file.path) == 0 { total -= file.size }
        }
        usage.withLock { $0 = Usage(scanned: total) }
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Thumbnails stay, whatever the limit: every item shows its own in a timeline, and made
    /// again a screen at a time they would cost a decode of an original each (100,000 photos'
    /// take about 3.3 GB, past the default limit). The limit is for everything else: display
    /// sizes, posters, renditions.
    static func isTrimmable(_ key: String) -> Bool { !key.contains("thumb-") }

    /// The bytes of the files below `path` that trimming may take.
    private static func sizeOfTree(_ path: String) -> Int {
        var total = 0
        forEachFile(under: path) { _, info in total += Int(info.st_size) }
        return total
    }

    /// Every file below `path` that trimming may take, with its status, by readdir (whose entry
    /// types spare a stat for folders and thumbnails) and fstatat: Foundation's enumerator makes a
    /// dictionary of attributes for each file, and took 55 s for the 300,000 entries of a
    /// 100,000-photo library's cache, where this takes a fraction of a second.
    private static func forEachFile(under path: String, _ body: (String, stat) -> Void) {
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let type = Int32(entry.pointee.d_type)
            if name == "." || name == ".." || (type == DT_REG && !isTrimmable(name)) { continue }
            if type == DT_DIR {
                forEachFile(under: "\(path)/\(name)", body)
                continue
            }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: forEachFile(under: "\(path)/\(name)", body)
            case S_IFREG where isTrimmable(name): body("\(path)/\(name)", info)
            default: break
            }
        }
    }
}
