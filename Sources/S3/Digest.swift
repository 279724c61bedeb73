internal import CCrypto

/// SHA-256 and HMAC-SHA-256 from libcrypto, the only hashes Signature Version 4 uses.
enum Digest {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        // libcrypto fails a one-shot hash only when it is itself broken, which no caller could mend.
        precondition(SHA256(bytes, bytes.count, &digest) != nil, "libcrypto could not hash")
        return digest
    }

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length = UInt32(digest.count)
        precondition(
            HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &digest, &length) != nil,
            "libcrypto could not compute an HMAC")
        return digest
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
