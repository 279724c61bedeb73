import Certificates
import Foundation
import TestSupport
import Testing

/// The certificate made at first start, read back by the `openssl` program, and when it is
/// kept or made anew.
@Suite struct CertificateFolderTests {
    static let names = MachineNames(
        hostNames: ["localhost", "photo-box", "photo-box.local"], addresses: ["127.0.0.1", "::1", "192.0.2.7", "2001:db8::7"])

    func openssl(_ arguments: [String]) async throws -> Executable.Output {
        try await Executable.run(program: "/usr/bin/openssl", arguments)
    }

    @Test func aMadeCertificateHasTheMachinesNamesAP256KeyAndAYear() async throws {
        let directory = TemporaryDirectory("certificates")
        let folder = CertificateFolder(path: directory.file("tls"))
        let (certificate, origin) = try folder.certificate(for: Self.names)
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
        #expect(text.contains("TLS Web Server Authentication"))

        // Valid now and for most of a year, not much longer.
        #expect(try await openssl(["x509", "-noout", "-checkend", "0", "-in", folder.certificatePath]).status == 0)
        #expect(try await openssl(["x509", "-noout", "-checkend", "\(360 * 86400)", "-in", folder.certificatePath]).status == 0)
        #expect(try await openssl(["x509", "-noout", "-checkend", "\(366 * 86400)", "-in", folder.certificatePath]).status == 1)

        let fingerprint = try await openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", folder.certificatePath]).stdout
        #expect(fingerprint.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("=\(certificate.sha256Fingerprint)"))
        let key = try await openssl(["pkey", "-noout", "-text", "-in", folder.keyPath]).stdout
        #expect(key.contains("NIST CURVE: P-256"))

        let keyMode = try FileManager.default.attributesOfItem(atPath: folder.keyPath)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["certificate.pem", "key.pem"])
    }

    @Test func aSecondStartKeepsIt() throws {
        let directory = TemporaryDirectory("certificates")
        let folder = CertificateFolder(path: directory.file("tls"))
        let (first, _) = try folder.certificate(for: Self.names)
        let (second, origin) = try folder.certificate(for: Self.names, now: Date() + 300 * 86400)
        #expect(origin == .kept)
        #expect(second.sha256Fingerprint == first.sha256Fingerprint)
        #expect(second.privateKeyPEM == first.privateKeyPEM)
    }

    @Test func aNewAddressMakesANewOne() throws {
        let directory = TemporaryDirectory("certificates")
        let folder = CertificateFolder(path: directory.file("tls"))
        let (first, _) = try folder.certificate(for: Self.names)
        var moved = Self.names
        moved.addresses.append("198.51.100.4")
        let (second, origin) = try folder.certificate(for: moved)
        #expect(origin == .replaced(because: "the kept one does not cover 198.51.100.4"))
        #expect(second.sha256Fingerprint != first.sha256Fingerprint)
        #expect(second.uncovered(moved).isEmpty)
        #expect(first.uncovered(moved) == ["198.51.100.4"])
    }

    @Test func oneThatExpiresWithinAMonthIsReplaced() throws {
        let directory = TemporaryDirectory("certificates")
        let folder = CertificateFolder(path: directory.file("tls"))
        let (first, _) = try folder.certificate(for: Self.names)
        let (second, origin) = try folder.certificate(for: Self.names, now: Date() + 340 * 86400)
        #expect(origin == .replaced(because: "the kept one expires within 30 days"))
        #expect(second.notAfter > first.notAfter)
    }

    @Test func aKeyThatIsNotTheCertificatesIsReplaced() throws {
        let directory = TemporaryDirectory("certificates")
        let folder = CertificateFolder(path: directory.file("tls"))
        _ = try folder.certificate(for: Self.names)
        let other = CertificateFolder(path: directory.file("other"))
        let (stranger, _) = try other.certificate(for: Self.names)
        try stranger.privateKeyPEM.write(toFile: folder.keyPath, atomically: true, encoding: .utf8)
        let (_, origin) = try folder.certificate(for: Self.names)
        #expect(origin == .replaced(because: "the kept one cannot be used (certificate_key_mismatch)"))
    }

    @Test func theUsersFilesAreCheckedWithStableCodes() throws {
        let directory = TemporaryDirectory("certificates")
        let (mine, _) = try CertificateFolder(path: directory.file("a")).certificate(for: Self.names)
        let (theirs, _) = try CertificateFolder(path: directory.file("b")).certificate(for: Self.names)
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
