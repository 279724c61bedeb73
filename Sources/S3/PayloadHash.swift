import Digests
import Storage

/// What the signature says of the body: its SHA-256, or that it is not signed at all.
public struct PayloadHash: Sendable, Hashable, CustomStringConvertible {
    /// The text that goes into the canonical request and the `x-amz-content-sha256` header.
    public let value: String

    private init(value: String) { self.value = value }

    /// The body is left out of the signature, for a body too large to read twice or one sent
    /// over TLS, which already protects it.
    public static let unsigned = PayloadHash(value: "UNSIGNED-PAYLOAD")

    public init(sha256Of payload: [UInt8]) {
        value = Hex.text(Digest.sha256(payload))
    }

    /// A SHA-256 computed elsewhere, such as while the body was streamed to disk; S3 wants it in
    /// lower case.
    public init(hex: String) throws(SigningError) {
        let isHex = hex.utf8.allSatisfy { $0.isASCIIHexDigit }
        guard hex.utf8.count == 64, isHex else {
            throw SigningError(.invalidPayloadHash, "A payload's SHA-256 is 64 hexadecimal digits.")
        }
        value = hex.lowercased()
    }

    public var description: String { value }
}

extension UInt8 {
    fileprivate var isASCIIHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}
