internal import CCrypto

/// A message digest of bytes that arrive in pieces, through OpenSSL's libcrypto, which uses the
/// processor's SHA extensions: SHA-256 by default, SHA-1 for clients that name theirs in it.
/// libcrypto's one-algorithm functions, not EVP: EVP's first digest reads OpenSSL's
/// configuration and starts its providers, 2 MB of an import's memory for the same block
/// function.
///
/// A class, so that a value carrying one (a request body on its way to disk) stays copyable;
/// unchecked Sendable because its pieces come from one thread at a time, each handing the
/// digest to the next (a connection's poll thread, then the handler that reads it).
public final class MessageDigest: @unchecked Sendable {
    private enum Context {
        case sha256(UnsafeMutablePointer<SHA256_CTX>)
        case sha1(UnsafeMutablePointer<SHA_CTX>)
    }

    private let context: Context
    private var digest: String?

    public init(sha1: Bool = false) {
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

    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(digest == nil, "a finished digest takes no more bytes")
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

    /// The digest as lowercase hex; the same answer when asked again.
    public func finish() -> String {
        if let digest { return digest }
        var bytes: [UInt8]
        switch context {
        case .sha256(let state):
            bytes = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
            precondition(SHA256_Final(&bytes, state) == 1)
        case .sha1(let state):
            bytes = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
            precondition(SHA1_Final(&bytes, state) == 1)
        }
        let text = Hex.text(bytes)
        digest = text
        return text
    }
}
