import Foundation
import S3
import Testing

/// The worked examples of AWS's S3 API Reference, with their credentials, date and region:
/// - "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk
///   (AWS Signature Version 4)", https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
/// - "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)",
///   https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
/// The expected texts are the pages' own; each canonical request hashes to the value its string
/// to sign prints.
@Suite struct S3DocumentationTests {
    let signer = SigV4Signer(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    let date: Date
    let emptyBody = PayloadHash(sha256Of: [])

    init() throws {
        date = try Date("2013-05-24T00:00:00Z", strategy: .iso8601)
    }

    /// Every example's string to sign: the examples' date and scope, then the hash of its
    /// canonical request.
    func stringToSign(hashing canonicalRequestHash: String) -> String {
        "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n\(canonicalRequestHash)"
    }

    /// The pages print the `Authorization` header's parts without a space after each comma; S3
    /// takes either, and the signer writes the space as AWS's test suite and SDKs do.
    func authorization(asPublished published: String) -> String {
        published.replacing(",", with: ", ")
    }

    @Test func getObjectWithRange() throws {
        var request = SignableRequest(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", headers: [.init("Range", "bytes=0-9")])
        let signature = try signer.sign(&request, date: date, payloadHash: emptyBody)
        #expect(
            signature.canonicalRequest == """
                GET
                /test.txt

                host:examplebucket.s3.amazonaws.com
                range:bytes=0-9
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;range;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            signature.stringToSign == stringToSign(hashing: "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"))
        #expect(signature.hex == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(
            request.header("Authorization")
                == authorization(
                    asPublished:
                        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
                ))
        #expect(request.header("x-amz-date") == "20130524T000000Z")
        #expect(request.header("x-amz-content-sha256") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func putObject() throws {
        let body = PayloadHash(sha256Of: Array("Welcome to Amazon S3.".utf8))
        // The request's x-amz-content-sha256 as the page gives it.
        #expect(body.value == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        var request = SignableRequest(
            method: "PUT", host: "examplebucket.s3.amazonaws.com", path: "/test$file.text",
            headers: [.init("Date", "Fri, 24 May 2013 00:00:00 GMT"), .init("x-amz-storage-class", "REDUCED_REDUNDANCY")])
        let signature = try signer.sign(&request, date: date, payloadHash: body)
        #expect(
            signature.canonicalRequest == """
                PUT
                /test%24file.text

                date:Fri, 24 May 2013 00:00:00 GMT
                host:examplebucket.s3.amazonaws.com
                x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
                x-amz-date:20130524T000000Z
                x-amz-storage-class:REDUCED_REDUNDANCY

                date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class
                44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072
                """)
        #expect(
            signature.stringToSign == stringToSign(hashing: "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d"))
        #expect(
            request.header("Authorization")
                == authorization(
                    asPublished:
                        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
                ))
        #expect(request.target == "/test%24file.text")
    }

    /// "GET Bucket Lifecycle" and "Get Bucket (List Objects)": the same request to the bucket
    /// but for its query.
    struct BucketExample: Sendable, CustomTestStringConvertible {
        let query: [SignableRequest.QueryItem]
        let canonicalQuery: String
        let canonicalRequestHash: String
        let signature: String
        /// The request-target the page prints, where the signer writes that very text (the page's
        /// `?lifecycle` it writes as `?lifecycle=`).
        var target: String? = nil

        var testDescription: String { canonicalQuery }
    }

    @Test(arguments: [
        BucketExample(
            query: [.init("lifecycle")], canonicalQuery: "lifecycle=",
            canonicalRequestHash: "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
            signature: "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
        BucketExample(
            query: [.init("max-keys", "2"), .init("prefix", "J")], canonicalQuery: "max-keys=2&prefix=J",
            canonicalRequestHash: "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
            signature: "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7", target: "/?max-keys=2&prefix=J"),
    ])
    func getBucket(_ example: BucketExample) throws {
        var request = SignableRequest(method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/", query: example.query)
        let signature = try signer.sign(&request, date: date, payloadHash: emptyBody)
        #expect(
            signature.canonicalRequest == """
                GET
                /
                \(example.canonicalQuery)
                host:examplebucket.s3.amazonaws.com
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            signature.stringToSign == stringToSign(hashing: example.canonicalRequestHash))
        #expect(
            request.header("Authorization")
                == authorization(
                    asPublished:
                        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=\(example.signature)"
                ))
        if let target = example.target { #expect(request.target == target) }
    }

    @Test func presignedGetObject() throws {
        var request = SignableRequest(method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt")
        let signature = try signer.presign(&request, date: date, expires: 86400)
        #expect(
            signature.canonicalRequest == """
                GET
                /test.txt
                X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host
                host:examplebucket.s3.amazonaws.com

                host
                UNSIGNED-PAYLOAD
                """)
        #expect(
            signature.stringToSign == stringToSign(hashing: "3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04"))
        #expect(signature.hex == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(
            "https://\(request.host)\(request.target)"
                == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
        )
        // A URL carries everything; nothing is left for headers to say.
        #expect(request.headers.isEmpty)
    }
}
