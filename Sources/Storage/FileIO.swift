import Foundation

/// The few POSIX calls the blob store needs, with errno turned into `StorageError` in one place.
enum FileIO {
    static func error(_ operation: String, _ code: Int32 = errno) -> StorageError {
        switch code {
        case ENOSPC, EDQUOT: StorageError(.noSpace, "The disk is full (\(operation)).")
        case ENOENT: StorageError(.notFound, "A file is missing (\(operation)).")
        default: StorageError(.io, "\(operation) failed: \(String(cString: strerror(code))).")
        }
    }

    static func fsyncDirectory(_ path: String) throws(StorageError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw error("open folder") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw error("fsync folder") }
    }

    /// Creates a folder and any missing parents, fsyncing each parent that gained an entry so
    /// the new folder survives a power cut.
    static func makeDirectories(_ path: String) throws(StorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path && !parent.isEmpty { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw error("create folder") }
        try fsyncDirectory(parent)
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw error("write")
            }
            offset += written
        }
    }
}
