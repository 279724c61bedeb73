import Foundation
import Memo

/// The small files of the derivative cache (thumbnails) that were looked up, with their bytes,
/// bounded in total size: any file let go is one read away on disk.
struct RememberedFiles: Sendable {
    /// Thumbnails are 3 to 30 KB; display sizes and videos are larger and stay on disk.
    static let largestFile = 64 * 1024

    struct Name: Hashable, Sendable {
        var hash: String
        var key: String
    }

    private struct Entry: Sendable {
        var file: DerivativeCache.CachedFile
        /// When it was last seen on disk (seconds since 1970).
        var checked: Int
    }

    private let entries = BoundedMemo<Name, Entry>(capacity: 64 << 20) { $0.file.kept?.stable.count ?? 0 }

    /// The file, unless it was last seen on disk before `checkedAfter`.
    func file(_ name: Name, checkedAfter: Int) -> DerivativeCache.CachedFile? {
        guard let entry = entries[name], entry.checked > checkedAfter else { return nil }
        return entry.file
    }

    func remember(_ name: Name, _ file: DerivativeCache.CachedFile, checked: Int) {
        entries.remember(Entry(file: file, checked: checked), for: name)
    }

    func forget(_ name: Name) {
        entries.forget(name)
    }

    func forget(hash: String) {
        entries.forget { $0.hash == hash }
    }

    /// The whole file, if it is still the one (inode and size) a stat just found.
    static func read(_ path: String, inode: ino_t, size: Int) -> StableBytes? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_ino == inode, Int(info.st_size) == size else { return nil }
        return StableBytes(count: size) { buffer in
            var done = 0
            while done < size {
                let count = pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                done += count
            }
            return done == size
        }
    }
}
