/// Why a request could not be signed. `code` is stable; `message` is for people and never carries
/// a key, a header's value or a path.
public struct SigningError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The method, host, path or a header could not be sent as it is, or would be signed
        /// differently from how it is sent.
        public static let invalidRequest = Code("s3_invalid_request")
        /// A presigned URL's lifetime is outside the second to seven days S3 accepts.
        public static let invalidExpiry = Code("s3_invalid_expiry")
        /// A payload hash is not 64 hexadecimal digits.
        public static let invalidPayloadHash = Code("s3_invalid_payload_hash")

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
