/// Why a certificate could not be read, made or kept. `code` is stable; `message` is for people
/// and names no file path (the caller knows which files it gave).
public struct CertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A file could not be read.
        public static let unreadable = Code("certificate_unreadable")
        /// The text is not a PEM certificate or private key.
        public static let invalid = Code("certificate_invalid")
        /// The private key is not the certificate's.
        public static let keyMismatch = Code("certificate_key_mismatch")
        /// libcrypto could not make a key or a certificate.
        public static let generationFailed = Code("certificate_generation_failed")
        /// The made certificate or key could not be written.
        public static let writeFailed = Code("certificate_write_failed")

        public var description: String { name }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
