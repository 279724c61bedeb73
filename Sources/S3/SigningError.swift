public import Failures

/// Why a request could not be signed. The message never carries a key, a header's value or a path.
public typealias SigningError = Failure<SigningFailures>

/// Its codes:
/// - `invalidRequest`: the method, host, path or a header could not be sent as it is, or would be
///   signed differently from how it is sent.
/// - `invalidExpiry`: a presigned URL's lifetime is outside the second to seven days S3 accepts.
/// - `invalidPayloadHash`: a payload hash is not 64 hexadecimal digits.
public enum SigningFailures: FailureDomain {}

extension SigningError.Code {
    public static let invalidRequest = Self("s3_invalid_request"), invalidExpiry = Self("s3_invalid_expiry")
    public static let invalidPayloadHash = Self("s3_invalid_payload_hash")
}
