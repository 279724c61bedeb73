internal import Glibc

/// A regular file, or the bytes `range` of it, opened to be sent: what a `.file` body names.
/// The server sends it from the descriptor; `InProcessClient` reads it.
struct FilePart {
    let descriptor: Int32
    let start: Int
    let size: Int

    /// nil when the file cannot be opened, is no regular file, or is shorter than `range`: such
    /// a body is answered as a missing file.
    static func open(_ path: String, range: Range<Int>?) -> FilePart? {
        let descriptor = path.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        var status = stat()
        let isFile = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        let whole = 0..<Int(status.st_size)
        let part = range ?? whole
        guard isFile, part.lowerBound >= 0, part.upperBound <= whole.upperBound else {
            _ = Glibc.close(descriptor)
            return nil
        }
        return FilePart(descriptor: descriptor, start: part.lowerBound, size: part.count)
    }

    /// Reads `count` bytes from `offset` within the part into `buffer`; false when the file
    /// gives fewer (it changed since it was measured).
    func read(into buffer: UnsafeMutableRawPointer, at offset: Int, count: Int) -> Bool {
        var done = 0
        while done < count {
            let read = pread(descriptor, buffer + done, count - done, off_t(start + offset + done))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            done += read
        }
        return true
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
