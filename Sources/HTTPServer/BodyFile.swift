import Digests
internal import Glibc

/// A request body on its way to disk: `<uuid>.upload` in the body folder, always a new file
/// (never one that was there before, never readable by other users), hashed as it is written
/// where its route asks: SHA-256 costs well under a millisecond a megabyte with the processor's
/// SHA extensions, less than the write beside it on the poll thread, and spares an upload a pass
/// over the file; a route that would not use the hash (a resumable upload's piece) pays nothing.
struct BodyFile: Sendable {
    /// A failed system call, by errno.
    struct Failure: Error, Sendable {
        let code: Int32

        /// The disk or the user's quota is full: the client may retry later (507), not our bug.
        var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
    }

    let path: String
    private(set) var size = 0
    private var descriptor: Int32
    private let digest: MessageDigest?

    private init(path: String, descriptor: Int32, hashing: Bool) {
        self.path = path
        self.descriptor = descriptor
        digest = hashing ? MessageDigest() : nil
    }

    static func create(in directory: String, hashing: Bool) throws(Failure) -> BodyFile {
        let path = directory + "/" + randomName() + ".upload"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        return BodyFile(path: path, descriptor: descriptor, hashing: hashing)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(code: errno)
            }
            offset += written
        }
        digest?.update(bytes)
        size += bytes.count
    }

    /// What a handler is given: the file as written so far, with its SHA-256 if it was hashed.
    var received: RequestBody {
        RequestBody(path: path, size: size, sha256: digest?.finish())
    }

    /// Closes the file and leaves it for the handler.
    mutating func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Closes the file and deletes it, whether or not a handler has moved it away since.
    mutating func discard() {
        close()
        _ = unlink(path)
    }

    /// A version 4 UUID, so concurrent uploads never pick the same name.
    private static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }
}
