import Digests
public import Foundation
import Storage

/// Signs requests with AWS Signature Version 4, as S3 and the S3-compatible stores (Ceph radosgw,
/// MinIO) check them: in an `Authorization` header, or in the query of a presigned URL.
public struct SigV4Signer: Sendable {
    public let accessKeyID: String
    public let region: String
    public let service: String
    private let secret: Secret

    public init(accessKeyID: String, secretAccessKey: String, region: String, service: String = "s3") {
        self.accessKeyID = accessKeyID
        self.secret = Secret(value: secretAccessKey)
        self.region = region
        self.service = service
    }

    /// Adds `x-amz-date`, for S3 `x-amz-content-sha256`, and `Authorization` to `request`; signing
    /// again replaces them. Every header of the request is signed, so it must be sent unchanged.
    @discardableResult
    public func sign(_ request: inout SignableRequest, date: Date, payloadHash: PayloadHash) throws(SigningError) -> Signature {
        try request.validate()
        let time = SigningTime(date)
        request.removeHeader("authorization")
        request.setHeader("x-amz-date", time.timestamp)
        // S3 refuses a request without it; the other services do not know it (nor does AWS's test
        // suite for them).
        if service == "s3" {
            request.setHeader("x-amz-content-sha256", payloadHash.value)
        }
        let headers = CanonicalHeaders(request)
        let signature = self.signature(of: CanonicalRequest(request, headers: headers, payloadHash: payloadHash), at: time)
        request.setHeader(
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope(time)), SignedHeaders=\(headers.signedHeaders), Signature=\(signature.hex)"
        )
        return signature
    }

    /// Makes `request` a presigned URL, valid `expires` seconds from `date` (one second to seven
    /// days): the `X-Amz-*` parameters go into its query, to send as `https://host` + `target`.
    /// The body is not signed, as S3 wants of a URL; any header in the request is signed and must
    /// be sent with it.
    @discardableResult
    public func presign(_ request: inout SignableRequest, date: Date, expires: Int) throws(SigningError) -> Signature {
        try request.validate()
        guard (1...604_800).contains(expires) else {
            throw SigningError(.invalidExpiry, "A presigned URL lasts from one second to seven days.")
        }
        let time = SigningTime(date)
        let headers = CanonicalHeaders(request)
        request.query.removeAll { Self.presignedParameters.contains($0.name) }
        request.query += [
            .init("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            .init("X-Amz-Credential", "\(accessKeyID)/\(scope(time))"),
            .init("X-Amz-Date", time.timestamp),
            .init("X-Amz-Expires", String(expires)),
            .init("X-Amz-SignedHeaders", headers.signedHeaders),
        ]
        let signature = self.signature(of: CanonicalRequest(request, headers: headers, payloadHash: .unsigned), at: time)
        request.query.append(.init("X-Amz-Signature", signature.hex))
        return signature
    }

    private static let presignedParameters: Set = [
        "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature",
    ]

    private func scope(_ time: SigningTime) -> String {
        "\(time.day)/\(region)/\(service)/aws4_request"
    }

    private func signature(of canonical: CanonicalRequest, at time: SigningTime) -> Signature {
        let stringToSign = [
            "AWS4-HMAC-SHA256", time.timestamp, scope(time), Hex.text(Digest.sha256(Array(canonical.text.utf8))),
        ]
        .joined(separator: "\n")
        // The key is bound to the day, region and service, so a leaked one signs for no other.
        let key = [time.day, region, service, "aws4_request"].reduce(Array("AWS4\(secret.value)".utf8)) { key, part in
            Digest.hmacSHA256(key: key, Array(part.utf8))
        }
        return Signature(
            canonicalRequest: canonical.text, stringToSign: stringToSign,
            hex: Hex.text(Digest.hmacSHA256(key: key, Array(stringToSign.utf8))))
    }
}

/// The secret key, kept out of `print`, `dump` and string interpolation of the signer, which end
/// up in logs.
private struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    var description: String { "redacted" }
    var debugDescription: String { "redacted" }
    var customMirror: Mirror { Mirror(self, children: []) }
}
