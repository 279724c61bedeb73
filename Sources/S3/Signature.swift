/// A signature and the two texts it was computed from. When S3 answers SignatureDoesNotMatch it
/// returns the canonical request and string to sign it computed, to compare with these.
public struct Signature: Sendable, Equatable {
    public let canonicalRequest: String
    public let stringToSign: String
    /// The signature itself, 64 lower-case hexadecimal digits.
    public let hex: String
}
