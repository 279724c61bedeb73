import Foundation

/// The small files of the derivative cache (thumbnails) that were looked up, with their bytes,
/// bounded in total size. When full, an arbitrary file is forgotten for each new one: any
/// forgotten file is one read away on disk.
struct RememberedFiles {
    /// Thumbnails are 3 to 30 KB; display sizes and videos are larger and stay on disk.
    static let largestFile = 64 * 1024
    static let budget = 64 << 20

    struct Name: Hashable {
        var hash: String
        var key: String
    }

    private struct Entry {
        var file: DerivativeCache.CachedFile
        /// When it was last seen on disk (seconds since 1970).
        var checked: Int
    }

    private var entries: [Name: Entry] = [:]
    private var bytes = 0

    /// The file, unless it was last seen on disk before `checkedAfter`.
    func file(_ name: Name, checkedAfter: Int) -> DerivativeCache.CachedFile? {
        guard let entry = entries[name], entry.checked > checkedAfter else { return nil }
        return entry.file
    }

    mutating func remember(_ name: Name, _ file: DerivativeCache.CachedFile, checked: Int) {
        let size = file.bytes?.count ?? 0
        forget(name)
        while bytes + size > Self.budget, let first = entries.first {
            forget(first.key)
        }
        entries[name] = Entry(file: file, checked: checked)
        bytes += size
    }

    mutating func forget(_ name: Name) {
        if let entry = entries.removeValue(forKey: name) { bytes -= entry.file.bytes?.count ?? 0 }
    }

    mutating func forget(hash: String) {
        for name in entries.keys where name.hash == hash { forget(name) }
    }

    /// The whole file, if it is still the one (inode and size) a stat just found.
    static func read(_ path: String, inode: ino_t, size: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_ino == inode, Int(info.st_size) == size else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let done = bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < size {
                let count = pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                done += count
            }
            return done
        }
        return done == size ? bytes : nil
    }
}
