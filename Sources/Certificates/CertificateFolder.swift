public import Foundation
internal import Glibc

/// The certificate CameraRoll makes for itself and keeps in a folder of the data folder
/// (`certificate.pem`, and `key.pem` readable by the owner only). It is kept while it is good
/// for the machine: it is made anew when missing or unreadable, when it expires within
/// `renewal`, or when the machine has an address or name it does not cover (a new network).
public struct CertificateFolder: Sendable {
    public let path: String
    public var certificatePath: String { path + "/certificate.pem" }
    public var keyPath: String { path + "/key.pem" }
    /// How long a made certificate is valid: browsers refuse server certificates valid for
    /// more than 398 days.
    public var validity: TimeInterval = 365 * 86400
    public var renewal: TimeInterval = 30 * 86400

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

    /// The certificate to serve with for `names`: the kept one if it is still good, else a new
    /// one, written before it is returned.
    public func certificate(for names: MachineNames, now: Date = Date()) throws(CertificateError) -> (
        certificate: ServerCertificate, origin: Origin
    ) {
        let origin: Origin
        do {
            let kept = try ServerCertificate(certificateFile: certificatePath, keyFile: keyPath)
            let uncovered = kept.uncovered(names)
            if kept.notAfter < now + renewal {
                origin = .replaced(because: "the kept one expires within \(Int(renewal / 86400)) days")
            } else if !uncovered.isEmpty {
                origin = .replaced(because: "the kept one does not cover \(uncovered.joined(separator: ", "))")
            } else {
                return (kept, .kept)
            }
        } catch  where error.code == .unreadable {
            origin = .made
        } catch {
            origin = .replaced(because: "the kept one cannot be used (\(error.code))")
        }
        return (try make(for: names, now: now), origin)
    }

    private func make(for names: MachineNames, now: Date) throws(CertificateError) -> ServerCertificate {
        let key = try PrivateKey.makeP256()
        // An hour back, for phones whose clock is a little behind.
        let certificate = try X509Certificate.selfSigned(
            key: key, commonName: "CameraRoll on \(names.hostNames.last ?? "localhost")", names: names, from: now - 3600,
            to: now + validity)
        let made = try ServerCertificate(certificatePEM: try certificate.pem, privateKeyPEM: try key.pem)
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw CertificateError(.writeFailed, "The certificate folder cannot be made (errno \(errno)).")
        }
        // The key first: a crash between the two leaves a pair that does not match, which the
        // next start replaces, never a new certificate beside an old key.
        try Self.writeAtomically(made.privateKeyPEM, to: keyPath, in: path)
        try Self.writeAtomically(made.certificatePEM, to: certificatePath, in: path)
        return made
    }

    /// Write to a temporary file created with mode 0600, fsync, rename over, fsync the folder:
    /// the file is whole or the old one, and never readable by others, not even for a moment.
    private static func writeAtomically(_ text: String, to destination: String, in folder: String) throws(CertificateError) {
        let temporary = destination + ".tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(errno) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw failure(code)
            }
            written += count
        }
        let synced = fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard synced, closed, rename(temporary, destination) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(code)
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    private static func failure(_ code: Int32) -> CertificateError {
        CertificateError(.writeFailed, "The certificate or key cannot be written: \(String(cString: strerror(code))).")
    }
}
