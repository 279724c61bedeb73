public import Failures

/// Why a certificate could not be read, made or kept. The message names no file path (the
/// caller knows which files it gave).
public typealias CertificateError = Failure<CertificateFailures>

/// Its codes:
/// - `unreadable`: a file could not be read.
/// - `invalid`: the text is not a PEM certificate or private key.
/// - `keyMismatch`: the private key is not the certificate's.
/// - `generationFailed`: libcrypto could not make a key or a certificate.
/// - `writeFailed`: the made certificate or key could not be written.
public enum CertificateFailures: FailureDomain {}

extension CertificateError.Code {
    public static let unreadable = Self("certificate_unreadable"), invalid = Self("certificate_invalid")
    public static let keyMismatch = Self("certificate_key_mismatch"), generationFailed = Self("certificate_generation_failed")
    public static let writeFailed = Self("certificate_write_failed")
}
