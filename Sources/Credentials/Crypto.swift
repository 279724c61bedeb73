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

    static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        left.count == right.count && CRYPTO_memcmp(left, right, left.count) == 0
    }
}
