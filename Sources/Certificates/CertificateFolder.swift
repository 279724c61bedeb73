public import Foundation
internal import Glibc
import Storage

/// The certificates CameraRoll makes for itself and keeps in a folder of the data folder: a
/// local authority (`authority.pem`, `authority-key.pem`), made once and kept for years because
/// phones install it, and the server's certificate it signs (`certificate.pem`, its chain, and
/// `key.pem`). The keys are readable by the owner only. The server's certificate is made anew
/// when missing or unreadable, when it expires within `renewal`, when the machine has an address
/// or name it does not cover (a new network), or when the kept authority did not sign it.
public struct CertificateFolder: Sendable {
    public let path: String
    public var certificatePath: String { path + "/certificate.pem" }
    public var keyPath: String { path + "/key.pem" }
    public var authorityPath: String { path + "/authority.pem" }
    public var authorityKeyPath: String { path + "/authority-key.pem" }
    /// How long a made server certificate is valid: browsers refuse server certificates valid
    /// for more than 398 days.
    static let validity: TimeInterval = 365 * 86400
    static let renewal: TimeInterval = 30 * 86400
    /// Long, because every device that trusts the authority must install its successor.
    static let authorityValidity: TimeInterval = 10 * 365 * 86400

    public init(path: String) {
        self.path = path
    }

    public enum Origin: Sendable, Equatable {
        case kept
        /// Made now, where none was kept before.
        case made
        /// Made now in place of the kept one, and why (for people).
        case replaced(because: String)
    }

    /// The authority, named after the machine: the kept one while it outlives any server
    /// certificate it would sign now, else a new one, written before it is returned.
    public func authority(for names: MachineNames, now: Date = Date()) throws(CertificateError) -> (
        authority: LocalAuthority, origin: Origin
    ) {
        try keptOrMade(
            read: { () throws(CertificateError) in try LocalAuthority(certificateFile: authorityPath, keyFile: authorityKeyPath) },
            problem: { kept in kept.notAfter < now + Self.validity ? "the kept one expires within \(Int(Self.validity / 86400)) days" : nil
            },
            make: { () throws(CertificateError) in
                // An hour back, for phones whose clock is a little behind.
                let made = try LocalAuthority.make(for: names, from: now - 3600, to: now + Self.authorityValidity)
                try keep(key: made.privateKeyPEM, to: authorityKeyPath, certificate: made.certificatePEM, to: authorityPath)
                return made
            })
    }

    /// The certificate to serve with for `names`, signed by `authority`: the kept one if it is
    /// still good, else a new one, written before it is returned.
    public func certificate(for names: MachineNames, signedBy authority: LocalAuthority, now: Date = Date()) throws(CertificateError)
        -> (certificate: ServerCertificate, origin: Origin)
    {
        try keptOrMade(
            read: { () throws(CertificateError) in try ServerCertificate(certificateFile: certificatePath, keyFile: keyPath) },
            problem: { kept in
                let uncovered = kept.uncovered(names)
                if kept.notAfter < now + Self.renewal { return "the kept one expires within \(Int(Self.renewal / 86400)) days" }
                if !uncovered.isEmpty { return "the kept one does not cover \(uncovered.joined(separator: ", "))" }
                if !authority.issued(kept) { return "the local authority did not sign the kept one" }
                return nil
            },
            make: { () throws(CertificateError) in
                let made = try authority.issue(for: names, from: now - 3600, to: now + Self.validity)
                try keep(key: made.privateKeyPEM, to: keyPath, certificate: made.certificatePEM, to: certificatePath)
                return made
            })
    }

    /// What `read` gives unless it cannot be read or has a `problem`, else what `make` gives.
    private func keptOrMade<Kept>(
        read: () throws(CertificateError) -> Kept, problem: (Kept) -> String?, make: () throws(CertificateError) -> Kept
    ) throws(CertificateError) -> (Kept, Origin) {
        let origin: Origin
        do {
            let kept = try read()
            guard let reason = problem(kept) else { return (kept, .kept) }
            origin = .replaced(because: reason)
        } catch  where error.code == .unreadable {
            origin = .made
        } catch {
            origin = .replaced(because: "the kept one cannot be used (\(error.code))")
        }
        return (try make(), origin)
    }

    private func keep(key: String, to keyFile: String, certificate: String, to certificateFile: String) throws(CertificateError) {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw CertificateError(.writeFailed, "The certificate folder cannot be made (errno \(errno)).")
        }
        // The key first: a crash between the two leaves a pair that does not match, which the
        // next start replaces, never a new certificate beside an old key.
        try Self.replace(key, at: keyFile)
        try Self.replace(certificate, at: certificateFile)
    }

    private static func replace(_ text: String, at destination: String) throws(CertificateError) {
        do {
            try PrivateFile.replace(Array(text.utf8), at: destination)
        } catch {
            throw CertificateError(.writeFailed, "The certificate or key cannot be written: \(error.message)")
        }
    }
}
