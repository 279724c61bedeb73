import Certificates
import Foundation
import TestSupport
import Testing

/// The local authority and the server certificate it signs, made at first start, read back by
/// the `openssl` program, and when each is kept or made anew.
@Suite struct CertificateFolderTests {
    static let names = MachineNames(
        hostNames: ["localhost", "photo-box", "photo-box.local"], addresses: ["127.0.0.1", "::1", "192.0.2.7", "2001:db8::7"])

    /// Each test's own folder: its `tls` is the one under test, any other in it another machine's.
    let directory = TemporaryDirectory("certificates")
    var folder: CertificateFolder { CertificateFolder(path: directory.file("tls")) }

    func openssl(_ arguments: [String]) async throws -> Executable.Output {
        try await Executable.run(program: "/usr/bin/openssl", arguments)
    }

    /// What a start of `serve` takes from the folder: the authority, then the certificate it signs.
    func start(_ folder: CertificateFolder, _ names: MachineNames = Self.names, now: Date = Date()) throws -> (
        authority: LocalAuthority, authorityOrigin: CertificateFolder.Origin, certificate: ServerCertificate,
        origin: CertificateFolder.Origin
    ) {
        let (authority, authorityOrigin) = try folder.authority(for: names, now: now)
        let (certificate, origin) = try folder.certificate(for: names, signedBy: authority, now: now)
        return (authority, authorityOrigin, certificate, origin)
    }

    func verify(_ folder: CertificateFolder) async throws -> Executable.Output {
        try await openssl(["verify", "-purpose", "sslserver", "-CAfile", folder.authorityPath, folder.certificatePath])
    }

    @Test func aMadeCertificateHasTheMachinesNamesAP256KeyAndAYear() async throws {
        let (_, _, certificate, origin) = try start(folder)
        #expect(origin == .made)

        let text = try await openssl(["x509", "-noout", "-text", "-in", folder.certificatePath]).stdout
        for name in ["DNS:localhost", "DNS:photo-box", "DNS:photo-box.local", "IP Address:127.0.0.1", "IP Address:192.0.2.7"] {
            #expect(text.contains(name), "\(name)")
        }
        #expect(text.contains("IP Address:0:0:0:0:0:0:0:1"))
        #expect(text.contains("IP Address:2001:DB8:0:0:0:0:0:7"))
        #expect(text.contains("Public Key Algorithm: id-ecPublicKey"))
        #expect(text.contains("NIST CURVE: P-256"))
        #expect(text.contains("CA:FALSE"))
        #expect(text.contains("Digital Signature"))
        #expect(!text.contains("Certificate Sign"))
        #expect(text.contains("TLS Web Server Authentication"))
        #expect(text.contains("Issuer: CN = CameraRoll local authority for photo-box.local"))

        // Valid now and for most of a year, not much longer.
        #expect(try await openssl(["x509", "-noout", "-checkend", "0", "-in", folder.certificatePath]).status == 0)
        #expect(try await openssl(["x509", "-noout", "-checkend", "\(360 * 86400)", "-in", folder.certificatePath]).status == 0)
        #expect(try await openssl(["x509", "-noout", "-checkend", "\(366 * 86400)", "-in", folder.certificatePath]).status == 1)

        let fingerprint = try await openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", folder.certificatePath]).stdout
        #expect(fingerprint.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=\(certificate.sha256Fingerprint)"))
        let key = try await openssl(["pkey", "-noout", "-text", "-in", folder.keyPath]).stdout
        #expect(key.contains("NIST CURVE: P-256"))

        for file in [folder.keyPath, folder.authorityKeyPath] {
            let keyMode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(keyMode == 0o600, "\(file)")
        }
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "authority-key.pem", "authority.pem", "certificate.pem", "key.pem",
            ])
    }

    @Test func theAuthorityIsAnAuthorityForTenYearsThatSignsTheCertificate() async throws {
        let (authority, authorityOrigin, certificate, _) = try start(folder)
        #expect(authorityOrigin == .made)

        let text = try await openssl(["x509", "-noout", "-text", "-in", folder.authorityPath]).stdout
        #expect(text.contains("Subject: CN = CameraRoll local authority for photo-box.local"))
        #expect(text.contains("CA:TRUE, pathlen:0"))
        #expect(text.contains("Certificate Sign, CRL Sign"))
        #expect(!text.contains("Digital Signature"))
        #expect(text.contains("NIST CURVE: P-256"))
        #expect(!text.contains("DNS:"), "the authority is for no name; the certificates it signs are")
        #expect(try await openssl(["x509", "-noout", "-checkend", "\(3640 * 86400)", "-in", folder.authorityPath]).status == 0)
        #expect(try await openssl(["x509", "-noout", "-checkend", "\(3660 * 86400)", "-in", folder.authorityPath]).status == 1)
        let fingerprint = try await openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", folder.authorityPath]).stdout
        #expect(fingerprint.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=\(authority.sha256Fingerprint)"))
        #expect(authority.sha256Fingerprint != certificate.sha256Fingerprint)
        #expect(try await openssl(["pkey", "-noout", "-text", "-in", folder.authorityKeyPath]).stdout.contains("NIST CURVE: P-256"))

        let verified = try await verify(folder)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains("OK"))
        // Served with its chain, so a client that trusts the authority needs nothing else.
        #expect(certificate.certificatePEM.hasSuffix(authority.certificatePEM))
        #expect(try String(contentsOfFile: folder.authorityPath, encoding: .utf8) == authority.certificatePEM)
    }

    @Test func aSecondStartKeepsBoth() throws {
        let first = try start(folder)
        let second = try start(folder, now: Date() + 300 * 86400)
        #expect(second.authorityOrigin == .kept)
        #expect(second.origin == .kept)
        #expect(second.authority.sha256Fingerprint == first.authority.sha256Fingerprint)
        #expect(second.certificate.sha256Fingerprint == first.certificate.sha256Fingerprint)
        #expect(second.certificate.privateKeyPEM == first.certificate.privateKeyPEM)
    }

    @Test func aNewAddressMakesANewCertificateFromTheSameAuthority() async throws {
        let first = try start(folder)
        var moved = Self.names
        moved.addresses.append("198.51.100.4")
        let second = try start(folder, moved)
        #expect(second.origin == .replaced(because: "the kept one does not cover 198.51.100.4"))
        #expect(second.certificate.sha256Fingerprint != first.certificate.sha256Fingerprint)
        #expect(second.certificate.uncovered(moved).isEmpty)
        #expect(first.certificate.uncovered(moved) == ["198.51.100.4"])
        #expect(second.authorityOrigin == .kept)
        #expect(second.authority.sha256Fingerprint == first.authority.sha256Fingerprint)
        #expect(try await verify(folder).status == 0)
    }

    @Test func oneThatExpiresWithinAMonthIsReplaced() throws {
        let first = try start(folder)
        let second = try start(folder, now: Date() + 340 * 86400)
        #expect(second.origin == .replaced(because: "the kept one expires within 30 days"))
        #expect(second.certificate.notAfter > first.certificate.notAfter)
        #expect(second.authorityOrigin == .kept)
    }

    @Test func anAuthorityThatWouldNotOutliveANewCertificateIsReplacedAndSoIsTheCertificate() throws {
        let first = try start(folder)
        let later = try start(folder, now: Date() + 9.5 * 365 * 86400)
        #expect(later.authorityOrigin == .replaced(because: "the kept one expires within 365 days"))
        #expect(later.origin == .replaced(because: "the kept one expires within 30 days"))
        #expect(later.authority.sha256Fingerprint != first.authority.sha256Fingerprint)
    }

    /// A data folder from before the authority holds only a self-signed certificate: the next
    /// start makes the authority and a certificate it signs, and asks nothing of anyone.
    @Test func aFolderWithOnlyASelfSignedCertificateGetsAnAuthority() async throws {
        try FileManager.default.createDirectory(
            atPath: folder.path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let alternativeNames =
            "subjectAltName=DNS:localhost,DNS:photo-box,DNS:photo-box.local,IP:127.0.0.1,IP:::1,IP:192.0.2.7,IP:2001:db8::7"
        let old = try await openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "365", "-subj",
            "/CN=CameraRoll on photo-box.local", "-addext", alternativeNames, "-addext", "basicConstraints=critical,CA:FALSE",
            "-keyout", folder.keyPath, "-out", folder.certificatePath,
        ])
        try #require(old.status == 0, "\(old.stderr)")
        let kept = try ServerCertificate(certificateFile: folder.certificatePath, keyFile: folder.keyPath)
        #expect(kept.uncovered(Self.names).isEmpty, "the old certificate would still do but for its signer")

        let migrated = try start(folder)
        #expect(migrated.authorityOrigin == .made)
        #expect(migrated.origin == .replaced(because: "the local authority did not sign the kept one"))
        #expect(migrated.certificate.sha256Fingerprint != kept.sha256Fingerprint)
        #expect(try await verify(folder).status == 0)
        #expect(try start(folder).origin == .kept)
    }

    @Test func aCertificateFromAnotherAuthorityIsReplaced() throws {
        _ = try start(folder)
        let other = try start(CertificateFolder(path: directory.file("other")))
        try other.certificate.certificatePEM.write(toFile: folder.certificatePath, atomically: true, encoding: .utf8)
        try other.certificate.privateKeyPEM.write(toFile: folder.keyPath, atomically: true, encoding: .utf8)
        #expect(try start(folder).origin == .replaced(because: "the local authority did not sign the kept one"))
    }

    @Test func aKeyThatIsNotTheCertificatesIsReplaced() throws {
        _ = try start(folder)
        let other = CertificateFolder(path: directory.file("other"))
        let stranger = try start(other)
        try stranger.certificate.privateKeyPEM.write(toFile: folder.keyPath, atomically: true, encoding: .utf8)
        try String(contentsOfFile: other.authorityKeyPath, encoding: .utf8)
            .write(toFile: folder.authorityKeyPath, atomically: true, encoding: .utf8)
        let again = try start(folder)
        #expect(again.origin == .replaced(because: "the kept one cannot be used (certificate_key_mismatch)"))
        #expect(again.authorityOrigin == .replaced(because: "the kept one cannot be used (certificate_key_mismatch)"))
    }

    @Test func theUsersFilesAreCheckedWithStableCodes() throws {
        let mine = try start(CertificateFolder(path: directory.file("a"))).certificate
        let theirs = try start(CertificateFolder(path: directory.file("b"))).certificate
        try "not PEM".write(toFile: directory.file("garbage.pem"), atomically: true, encoding: .utf8)
        let cases: [(String, String, CertificateError.Code)] = [
            (directory.file("a/certificate.pem"), directory.file("b/key.pem"), .keyMismatch),
            (directory.file("missing.pem"), directory.file("a/key.pem"), .unreadable),
            (directory.file("garbage.pem"), directory.file("a/key.pem"), .invalid),
            (directory.file("a/certificate.pem"), directory.file("garbage.pem"), .invalid),
        ]
        for (certificate, key, code) in cases {
            let error = #expect(throws: CertificateError.self) { try ServerCertificate(certificateFile: certificate, keyFile: key) }
            #expect(error?.code == code)
        }
        let loaded = try ServerCertificate(certificateFile: directory.file("a/certificate.pem"), keyFile: directory.file("a/key.pem"))
        #expect(loaded.sha256Fingerprint == mine.sha256Fingerprint)
        #expect(loaded.sha256Fingerprint != theirs.sha256Fingerprint)
    }

    @Test func theMachinesNamesAreLoopbackPlusUsableAddresses() {
        let names = MachineNames.current()
        #expect(names.hostNames.first == "localhost")
        #expect(Array(names.addresses.prefix(2)) == ["127.0.0.1", "::1"])
        for address in names.lanAddresses {
            #expect(!address.hasPrefix("127."))
            #expect(!address.lowercased().hasPrefix("fe80:"))
            #expect(!address.hasPrefix("169.254."))
        }
    }
}
