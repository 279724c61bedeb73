public import Foundation

/// The certificate authority CameraRoll keeps for this machine. A phone installs and trusts it
/// once; the server's certificates it signs can then be made anew, for new addresses or before
/// they expire, without the phone noticing.
public struct LocalAuthority: Sendable {
    public let certificatePEM: String
    let privateKeyPEM: String
    /// SHA-256 of the authority's certificate, as phones show it when installing it (`AB:CD:...`).
    public let sha256Fingerprint: String
    public let notAfter: Date

    init(certificatePEM: String, privateKeyPEM: String) throws(CertificateError) {
        let (certificate, _, notAfter) = try X509Certificate.pair(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.sha256Fingerprint = certificate.sha256Fingerprint
        self.notAfter = notAfter
    }

    init(certificateFile: String, keyFile: String) throws(CertificateError) {
        try self.init(
            certificatePEM: try ServerCertificate.read(certificateFile, "authority's certificate"),
            privateKeyPEM: try ServerCertificate.read(keyFile, "authority's private key"))
    }

    static func make(for names: MachineNames, from start: Date, to end: Date) throws(CertificateError) -> LocalAuthority {
        let key = try PrivateKey.makeP256()
        let certificate = try X509Certificate.authority(
            key: key, commonName: "CameraRoll local authority for \(names.machineName)", from: start, to: end)
        return try LocalAuthority(certificatePEM: try certificate.pem, privateKeyPEM: try key.pem)
    }

    /// A new certificate for a server reached by `names`, with this authority's certificate after
    /// it as its chain, since a client that trusts the authority may not have been given it.
    func issue(for names: MachineNames, from start: Date, to end: Date) throws(CertificateError) -> ServerCertificate {
        let (authority, authorityKey, _) = try X509Certificate.pair(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        let key = try PrivateKey.makeP256()
        let certificate = try X509Certificate.server(
            key: key, commonName: "CameraRoll on \(names.machineName)", names: names, from: start, to: end,
            signedBy: (authority, authorityKey))
        return try ServerCertificate(certificatePEM: try certificate.pem + certificatePEM, privateKeyPEM: try key.pem)
    }

    /// Whether this authority signed the server's certificate (the first of its chain).
    func issued(_ server: ServerCertificate) -> Bool {
        guard let authority = try? X509Certificate(pem: certificatePEM), let certificate = try? X509Certificate(pem: server.certificatePEM)
        else { return false }
        return certificate.isIssued(by: authority)
    }
}
