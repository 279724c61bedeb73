internal import CCrypto
import Foundation

/// SHA-256 through OpenSSL's libcrypto, which uses the processor's SHA extensions.
struct SHA256: ~Copyable {
    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            preconditionFailure("libcrypto cannot start a SHA-256 digest")
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
    public static func sha256(ofPartsOf path: String, size: Int, partSize: Int) throws(StorageError) -> (parts: [String], whole: String) {
        precondition(partSize > 0)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        let whole = SHA256()
        var parts: [String] = []
        var offset = 0
        while offset < size {
            let part = SHA256()
            let end = min(offset + partSize, size)
            while offset < end {
                let count = pread(fd, buffer.baseAddress, min(buffer.count, end - offset), off_t(offset))
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
