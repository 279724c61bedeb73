internal import CCrypto

/// SHA-256 and HMAC-SHA-256 of bytes in memory, from libcrypto: what Signature Version 4 signs
/// with, and what sign-in and capability URLs are made of.
public enum Digest {
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        // libcrypto fails a one-shot hash only when it is itself broken, which no caller could mend.
        precondition(SHA256(bytes, bytes.count, &digest) != nil, "libcrypto could not hash")
        return digest
    }

    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length = UInt32(digest.count)
        precondition(
            HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &digest, &length) != nil,
            "libcrypto could not compute an HMAC")
        return digest
    }
}
