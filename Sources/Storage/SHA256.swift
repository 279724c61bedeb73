internal import CCrypto

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
