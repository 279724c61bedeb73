import CStorageShims
import Foundation

/// The few POSIX calls the blob store needs, with errno turned into `StorageError` in one place.
enum FileIO {
    static func error(_ operation: String, _ code: Int32 = errno) -> StorageError {
        switch code {
        case ENOSPC, EDQUOT: StorageError(.noSpace, "The disk is full.", detail: operation)
        case ENOENT: StorageError(.notFound, "A file is missing.", detail: operation)
        default: StorageError(.io, "A file could not be read or written.", detail: "\(operation): \(String(cString: strerror(code)))")
        }
    }

    static func fsyncFile(_ path: String) throws(StorageError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw error("open") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw error("fsync") }
    }

    /// Starts writing a range of a file to disk and returns: an fsync later waits only for what
    /// has not gone out since. A failure is the later fsync's to report.
    static func startWriting(_ fd: Int32, from offset: Int, count: Int) {
        _ = cr_start_writeback(fd, Int64(offset), Int64(count))
    }

    /// Copies the rest of `input` to `output` at their offsets, inside the kernel where it can
    /// (no pass through our memory); how many bytes.
    static func copyRest(of input: Int32, to output: Int32) throws(StorageError) -> Int {
        var copied = 0
        while true {
            let count = cr_copy_file_range(input, output, 1 << 30)
            if count > 0 {
                copied += Int(count)
                continue
            }
            if count == 0 { return copied }
            if errno == EINTR { continue }
            guard copied == 0, [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP].contains(errno) else { throw error("copy") }
            try readChunks(input) { chunk throws(StorageError) in
                try writeAll(output, chunk)
                copied += chunk.count
            }
            return copied
        }
    }

    static func fsyncDirectory(_ path: String) throws(StorageError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw error("open folder") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw error("fsync folder") }
    }

    /// Creates a folder and any missing parents, each its owner's alone (0700, as the XDG base
    /// directory rules ask of a missing `$XDG_DATA_HOME` too). When durable, each parent that
    /// gained an entry is fsynced, so the new folder survives a power cut.
    static func makeDirectories(_ path: String, _ durability: PrivateFile.Durability = .durable) throws(StorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path && !parent.isEmpty { try makeDirectories(parent, durability) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw error("create folder") }
        if durability == .durable { try fsyncDirectory(parent) }
    }

    /// Gives a file or folder of ours that others may use `mode` instead. One another account
    /// owns keeps its mode: that is its owner's choice, not ours.
    static func restrict(_ path: String, to mode: mode_t) {
        var info = stat()
        if stat(path, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 != 0 { chmod(path, mode) }
    }

    /// Reads `fd` to its end, or the bytes of `range` (by pread, which must all be there), a chunk
    /// at a time. 256 KB chunks: a read(2) of that many costs a few microseconds against the
    /// hashing and copying of them, and a larger buffer only added to the memory of every import.
    static func readChunks(
        _ fd: Int32, in range: Range<Int>? = nil, _ body: (UnsafeRawBufferPointer) throws(StorageError) -> Void
    ) throws(StorageError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range?.lowerBound ?? 0
        while offset < range?.upperBound ?? .max {
            let count =
                if let range {
                    pread(fd, buffer.baseAddress, min(buffer.count, range.upperBound - offset), off_t(offset))
                } else {
                    read(fd, buffer.baseAddress, buffer.count)
                }
            if count < 0 {
                if errno == EINTR { continue }
                throw error("read")
            }
            if count == 0 {
                guard range == nil else { throw StorageError(.io, "A file ended before its size.") }
                return
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += count
        }
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
