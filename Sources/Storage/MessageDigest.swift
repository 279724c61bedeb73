internal import CCrypto
import Foundation

/// A message digest through OpenSSL's libcrypto, which uses the processor's SHA extensions:
/// SHA-256 by default, SHA-1 for clients that name theirs in it. libcrypto's one-algorithm
/// functions, not EVP: EVP's first digest reads OpenSSL's configuration and starts its
/// providers, 2 MB of an import's memory for the same block function.
struct MessageDigest: ~Copyable {
    private enum Context {
        case sha256(UnsafeMutablePointer<SHA256_CTX>)
        case sha1(UnsafeMutablePointer<SHA_CTX>)
    }

    private let context: Context

    init(sha1: Bool = false) {
        if sha1 {
            let state = UnsafeMutablePointer<SHA_CTX>.allocate(capacity: 1)
            precondition(SHA1_Init(state) == 1, "libcrypto cannot start a digest")
            context = .sha1(state)
        } else {
            let state = UnsafeMutablePointer<SHA256_CTX>.allocate(capacity: 1)
            precondition(SHA256_Init(state) == 1, "libcrypto cannot start a digest")
            context = .sha256(state)
        }
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        switch context {
        case .sha256(let state): precondition(SHA256_Update(state, base, bytes.count) == 1)
        case .sha1(let state): precondition(SHA1_Update(state, base, bytes.count) == 1)
        }
    }

    deinit {
        switch context {
        case .sha256(let state): state.deallocate()
        case .sha1(let state): state.deallocate()
        }
    }

    /// The digest as lowercase hex.
    consuming func finish() -> String {
        var digest: [UInt8]
        switch context {
        case .sha256(let state):
            digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
            precondition(SHA256_Final(&digest, state) == 1)
        case .sha1(let state):
            digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
            precondition(SHA1_Final(&digest, state) == 1)
        }
        return Hex.text(digest)
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
        let whole = MessageDigest()
        var parts: [String] = []
        for range in ranges {
            let part = MessageDigest()
            try FileIO.readChunks(fd, in: range) { chunk in
                part.update(chunk)
                whole.update(chunk)
            }
            parts.append(part.finish())
        }
        return (parts, whole.finish())
    }
}
