import Foundation

/// A file opened for reading at explicit offsets (so that any thread may read the next part),
/// closed when released. Its calls block: they run on an executor's threads.
final class ReadOnlyFile: Sendable {
    private let descriptor: Int32

    init(_ path: String) throws(LibraryError) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LibraryError(.io, "An original cannot be opened.") }
    }

    deinit { close(descriptor) }

    /// Its length in bytes now.
    func size() throws(LibraryError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw LibraryError(.io, "A file cannot be read.") }
        return Int(status.st_size)
    }

    /// `prefix`, then `count` bytes from `offset`, in one new array; the bytes read go into `crc`.
    /// A file that ends before them is not the one the library recorded.
    func read(_ count: Int, at offset: Int, after prefix: [UInt8], crc: inout CRC32) throws(LibraryError) -> [UInt8] {
        var failure: LibraryError?
        let bytes = [UInt8](unsafeUninitializedCapacity: prefix.count + count) { buffer, initialized in
            _ = buffer.initialize(from: prefix)
            let target = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[prefix.count...]))
            var done = 0
            while done < count {
                let got = pread(descriptor, target.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    failure = LibraryError(
                        .io, got == 0 ? "An original is shorter than the library has it." : "An original cannot be read.")
                    break
                }
                done += got
            }
            crc.update(UnsafeRawBufferPointer(rebasing: target[..<done]))
            initialized = prefix.count + done
        }
        if let failure { throw failure }
        return bytes
    }
}
