import Glibc

/// The two parts of a stream segment as HLS wants them: a fragmented MP4's initialization (its
/// `ftyp` and `moov`, which an HLS playlist names in `EXT-X-MAP`) and its media (from the first
/// `moof` on). Our own ffmpeg writes the segments, but the walk trusts no box size.
package enum FragmentedMP4 {
    /// The offset of the first top-level `moof` box, or nil when the boxes before it do not add
    /// up (a size past the end, smaller than its header) or there is none.
    package static func firstFragmentOffset(_ bytes: [UInt8]) -> Int? {
        firstFragmentOffset(size: bytes.count) { offset, count in Array(bytes[offset..<(offset + count)]) }
    }

    /// The same for a file, of which only the boxes' headers are read (a segment is megabytes).
    /// A system call: for a blocking executor.
    package static func firstFragmentOffset(ofFileAt path: String) -> (offset: Int, size: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let size = Int(status.st_size)
        let offset = firstFragmentOffset(size: size) { offset, count in
            var header = [UInt8](repeating: 0, count: count)
            let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return read == count ? header : nil
        }
        return offset.map { ($0, size) }
    }

    /// The walk over `size` bytes, of which `header(offset, count)` gives the `count` (8 to 16)
    /// from `offset`, or nil when they cannot be read.
    private static func firstFragmentOffset(size: Int, header: (Int, Int) -> [UInt8]?) -> Int? {
        var offset = 0
        while size - offset >= 8 {
            guard let bytes = header(offset, min(16, size - offset)) else { return nil }
            if bytes[4..<8].elementsEqual("moof".utf8) { return offset }
            var boxSize = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
            var headerSize = 8
            if boxSize == 1 {
                // A 64-bit size follows the type; one past Int's range is past any file's end.
                guard bytes.count >= 16, bytes[8] & 0x80 == 0 else { return nil }
                boxSize = bytes[8..<16].reduce(0) { $0 << 8 | Int($1) }
                headerSize = 16
            }
            // Size 0 runs to the end of the file: no `moof` after it.
            guard boxSize >= headerSize, boxSize <= size - offset else { return nil }
            offset += boxSize
        }
        return nil
    }
}
