internal import CCrypto
import Foundation

/// A message digest through OpenSSL's libcrypto, which uses the processor's SHA extensions:
/// SHA-256 by default, SHA-1 for clients that name theirs in it.
struct MessageDigest: ~Copyable {
    private let context: OpaquePointer

    init(sha1: Bool = false) {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, sha1 ? EVP_sha1() : EVP_sha256(), nil) == 1 else {
            preconditionFailure("libcrypto cannot start a digest")
        }
        self.context = context
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(EVP_DigestUpdate(context, base, bytes.count) == 1)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// The digest as lowercase hex.
    consuming func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1)
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// SHA-256s of a file's parts and of the whole, in one pass: for a store that checks each part
/// of an upload on its own, and a caller that checks the whole is what it staged.
public enum FileDigest {
    /// The SHA-1 of a whole file, as lowercase hex: tus' checksum extension asks every server to
    /// take that algorithm.
    public static func sha1(of path: String) throws(StorageError) -> String {
        try digest(of: path, MessageDigest(sha1: true)).hash
    }

    /// The SHA-256 of a whole file, as lowercase hex, and how many bytes it had.
    public static func sha256(of path: String) throws(StorageError) -> (hash: String, size: Int) {
        try digest(of: path, MessageDigest())
    }

    private static func digest(of path: String, _ digest: consuming MessageDigest) throws(StorageError) -> (hash: String, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        var size = 0
        try FileIO.readChunks(fd) { chunk in
            digest.update(chunk)
            size += chunk.count
        }
        return (digest.finish(), size)
    }

    /// The SHA-256 of each `partSize` bytes of a file (the last part shorter) and of the whole.
    public static func sha256(ofPartsOf path: String, size: Int, partSize: Int) throws(StorageError) -> (parts: [String], whole: String) {
        precondition(partSize > 0)
        return try sha256(of: path, parts: stride(from: 0, to: size, by: partSize).map { $0..<min($0 + partSize, size) })
    }

    /// The SHA-256 of each of a file's byte ranges, which follow each other from its start, and of
    /// all of them together.
    public static func sha256(of path: String, parts ranges: [Range<Int>]) throws(StorageError) -> (parts: [String], whole: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        let whole = MessageDigest()
        var parts: [String] = []
        for range in ranges {
            let part = MessageDigest()
            var offset = range.lowerBound
            while offset < range.upperBound {
                let count = pread(fd, buffer.baseAddress, min(buffer.count, range.upperBound - offset), off_t(offset))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw count == 0 ? StorageError(.io, "A file ended before its size.") : FileIO.error("read") }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                part.update(chunk)
                whole.update(chunk)
                offset += count
            }
            parts.append(part.finish())
        }
        return (parts, whole.finish())
    }
}
