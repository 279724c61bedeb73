public import Foundation

/// A certificate and its private key, ready to serve with, and what a person needs to decide
/// whether to trust it.
public struct ServerCertificate: Sendable {
    /// The server's certificate first, then any chain.
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// SHA-256 of the server's certificate, as phones and browsers show it (`AB:CD:...`).
    public let sha256Fingerprint: String
    public let notAfter: Date

    public init(certificatePEM: String, privateKeyPEM: String) throws(CertificateError) {
        let (certificate, _, notAfter) = try X509Certificate.pair(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.sha256Fingerprint = certificate.sha256Fingerprint
        self.notAfter = notAfter
    }

    /// The user's own certificate (chain) and key files.
    public init(certificateFile: String, keyFile: String) throws(CertificateError) {
        try self.init(
            certificatePEM: try Self.read(certificateFile, "certificate"), privateKeyPEM: try Self.read(keyFile, "private key"))
    }

    /// The names among `names` the certificate is not valid for; empty when it covers them all.
    public func uncovered(_ names: MachineNames) -> [String] {
        (try? X509Certificate(pem: certificatePEM))?.uncovered(names) ?? names.hostNames + names.addresses
    }

    static func read(_ path: String, _ what: String) throws(CertificateError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CertificateError(.unreadable, "The \(what) file cannot be read.")
        }
    }
}
