internal import CCrypto
import Storage

/// The libcrypto calls sign-in needs: random bytes, scrypt, SHA-256, HMAC-SHA-256 and a comparison
/// that takes the same time whatever the bytes.
enum Crypto {
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        // Without the system's randomness there is no safe token or salt to make.
        precondition(RAND_bytes(&bytes, Int32(count)) == 1, "libcrypto has no randomness")
        return bytes
    }

    static func scrypt(_ password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int) -> [UInt8]? {
        var key = [UInt8](repeating: 0, count: length)
        // libcrypto refuses more than maxmem; 128·r·n bytes plus headroom.
        let memory = 128 * r * n + 4 * 1024 * 1024
        let ok = password.withUnsafeBufferPointer { password in
            EVP_PBE_scrypt(
                password.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, password.count, salt, salt.count,
                n, r, p, memory, &key, length)
        }
        return ok == 1 ? key : nil
    }

    /// Whether `signature` (DER, as WebAuthn's ES256 gives it) is the P-256 key's, whose
    /// uncompressed point is `publicKey` (0x04, x, y), over `message` hashed with SHA-256.
    static func verifyES256(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        guard publicKey.count == 65, publicKey[0] == 4, !signature.isEmpty else { return false }
        // The key as a SubjectPublicKeyInfo: id-ecPublicKey on prime256v1, then the point.
        let info = Self.p256KeyInfoPrefix + publicKey
        let key = info.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var start = buffer.baseAddress
            return d2i_PUBKEY(nil, &start, buffer.count)
        }
        guard let key else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    private static let p256KeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03,
        0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        left.count == right.count && CRYPTO_memcmp(left, right, left.count) == 0
    }
}
