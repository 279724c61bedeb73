/// What the server proves itself with over HTTPS: a certificate chain (the server's own first)
/// and its private key, both PEM. Given as text, so the server reads no file of its own and
/// the caller decides where they are kept.
public struct TLSIdentity: Sendable {
    public var certificateChain: String
    public var privateKey: String

    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
