import Foundation
import S3
import Testing

/// What the published examples leave out: encoding object keys, signing twice, the unsigned body,
/// and what the signer refuses.
@Suite struct SigV4SignerTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    let signer = SigV4Signer(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: secret, region: "us-east-1")
    let date: Date
    let objectRequest = SignableRequest(
        method: "PUT", host: "radosgw.internal:7480", path: "/photos/originals/IMG 0001.HEIC",
        headers: [.init("Content-Type", "image/heic")])

    init() throws {
        date = try Date("2026-02-28T23:59:59.75Z", strategy: .iso8601)
    }

    /// The object request signed with its body unsigned, and the signature.
    func signedObjectRequest() throws -> (SignableRequest, Signature) {
        var request = objectRequest
        let signature = try signer.sign(&request, date: date, payloadHash: .unsigned)
        return (request, signature)
    }

    @Test func theDateIsWrittenInUTCToTheSecond() throws {
        let (request, signature) = try signedObjectRequest()
        #expect(request.header("x-amz-date") == "20260228T235959Z")
        #expect(signature.stringToSign.contains("\n20260228/us-east-1/s3/aws4_request\n"))
    }

    @Test func objectKeysAreEncodedOnceAndNotNormalised() throws {
        var request = SignableRequest(
            method: "GET", host: "radosgw.internal:7480", path: "/photos/a b/100%/./x+y(1)//\u{e9}.jpg",
            query: [.init("prefix", "a b+c/d")])
        let signature = try signer.sign(&request, date: date, payloadHash: PayloadHash(sha256Of: []))
        let encodedPath = "/photos/a%20b/100%25/./x%2By%281%29//%C3%A9.jpg"
        #expect(request.target == encodedPath + "?prefix=a%20b%2Bc%2Fd")
        #expect(signature.canonicalRequest.hasPrefix("GET\n\(encodedPath)\nprefix=a%20b%2Bc%2Fd\nhost:radosgw.internal:7480\n"))
    }

    @Test func anUnsignedPayloadIsSaidSo() throws {
        let (request, signature) = try signedObjectRequest()
        #expect(request.header("x-amz-content-sha256") == "UNSIGNED-PAYLOAD")
        #expect(signature.canonicalRequest.hasSuffix("\nUNSIGNED-PAYLOAD"))
    }

    @Test func everyHeaderIsSigned() throws {
        let (request, signature) = try signedObjectRequest()
        #expect(request.header("Authorization")?.contains("SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,") == true)
        var altered = objectRequest
        altered.setHeader("content-type", "text/html")
        #expect(try signer.sign(&altered, date: date, payloadHash: .unsigned).hex != signature.hex)
    }

    @Test func signingAgainReplacesTheFirstSignature() throws {
        var once = objectRequest
        try signer.sign(&once, date: date, payloadHash: .unsigned)
        var twice = objectRequest
        try signer.sign(&twice, date: date.addingTimeInterval(-3600), payloadHash: PayloadHash(sha256Of: [1, 2, 3]))
        try signer.sign(&twice, date: date, payloadHash: .unsigned)
        #expect(twice == once)
        #expect(twice.headers.filter { $0.name.lowercased() == "authorization" }.count == 1)
    }

    @Test func presigningAgainReplacesTheFirstParameters() throws {
        var once = objectRequest
        try signer.presign(&once, date: date, expires: 900)
        var twice = objectRequest
        try signer.presign(&twice, date: date.addingTimeInterval(-3600), expires: 60)
        try signer.presign(&twice, date: date, expires: 900)
        #expect(twice == once)
        #expect(once.target.hasPrefix("/photos/originals/IMG%200001.HEIC?X-Amz-Algorithm=AWS4-HMAC-SHA256&"))
        #expect(once.target.contains("&X-Amz-SignedHeaders=content-type%3Bhost&X-Amz-Signature="))
    }

    @Test func aPresignedURLLastsASecondToSevenDays() throws {
        for expires in [0, -1, 604_801] {
            var request = objectRequest
            let error = #expect(throws: SigningError.self) { try signer.presign(&request, date: date, expires: expires) }
            #expect(error?.code == .invalidExpiry)
            #expect(request == objectRequest)
        }
        var request = objectRequest
        try signer.presign(&request, date: date, expires: 604_800)
        #expect(request.query.contains(.init("X-Amz-Expires", "604800")))
    }

    @Test(arguments: [
        SignableRequest(method: "GET / HTTP/1.1", host: "s3.internal", path: "/"),
        SignableRequest(method: "", host: "s3.internal", path: "/"),
        SignableRequest(method: "GET", host: "", path: "/"),
        SignableRequest(method: "GET", host: "s3.internal/evil", path: "/"),
        SignableRequest(method: "GET", host: "s3.internal\r\nX-Evil: 1", path: "/"),
        SignableRequest(method: "GET", host: "s3.internal", path: "bucket/key"),
        SignableRequest(method: "GET", host: "s3.internal", path: "/", headers: [.init("X-Amz-Meta-Name", "a\r\nX-Evil: 1")]),
        SignableRequest(method: "GET", host: "s3.internal", path: "/", headers: [.init("X-Amz-Meta-Name", "a\u{0}b")]),
        SignableRequest(method: "GET", host: "s3.internal", path: "/", headers: [.init("Bad Name", "a")]),
        SignableRequest(method: "GET", host: "s3.internal", path: "/", headers: [.init("Host", "elsewhere.internal")]),
    ])
    func refusesWhatWouldBeSentOtherwiseThanSigned(_ request: SignableRequest) {
        for presign in [false, true] {
            var signed = request
            let error = #expect(throws: SigningError.self) {
                if presign {
                    try signer.presign(&signed, date: date, expires: 60)
                } else {
                    try signer.sign(&signed, date: date, payloadHash: .unsigned)
                }
            }
            #expect(error?.code == .invalidRequest)
            #expect(signed == request)
        }
    }

    @Test func aPayloadHashFromElsewhereIsChecked() throws {
        let computed = PayloadHash(sha256Of: Array("Welcome to Amazon S3.".utf8))
        #expect(try PayloadHash(hex: computed.value.uppercased()) == computed)
        for bad in ["", "UNSIGNED-PAYLOAD", String(computed.value.dropLast()), String(computed.value.dropLast()) + "g"] {
            let error = #expect(throws: SigningError.self) { try PayloadHash(hex: bad) }
            #expect(error?.code == .invalidPayloadHash)
        }
    }

    @Test func theSecretKeyIsNeverPrinted() {
        var dumped = ""
        dump(signer, to: &dumped)
        for text in [String(describing: signer), String(reflecting: signer), "\(signer)", dumped] {
            #expect(!text.contains(Self.secret))
            #expect(text.contains("AKIAIOSFODNN7EXAMPLE"))
        }
    }
}
