import Foundation
import HTTPServer
import IPAddress
import PostgreSQL
import S3
import Storage

extension FuzzTarget {
    static let storageTargets: [FuzzTarget] = [
        FuzzTarget(
            "sql-placeholders", "the library's SQL with ? parameters, numbered for PostgreSQL",
            examples: ["SELECT 'it''s ?', \"a?\" FROM t WHERE a = ? -- why?\nAND b IN (?, ?)"]
        ) { bytes in
            let numbered = Placeholders.numbered(text(bytes))
            require(Placeholders.numbered(numbered) == numbered, "numbering leaves no parameter to number")
        },
        FuzzTarget("bytea-text", "a bytea value as libpq's text format gives it", examples: ["\\x00ff10", "\\x", "\\xzz"]) { bytes in
            let given = text(bytes)
            guard case .blob(let value)? = try? ColumnType.value(given, type: ColumnType.bytea, "fuzz") else { return }
            require("\\x" + value.map { String(format: "%02x", $0) }.joined() == given.lowercased(), "bytes read back as their text")
        },
        FuzzTarget(
            "postgres-moment", "a timestamp or timestamptz as libpq's text format gives it (DateStyle ISO, zone UTC)",
            examples: ["2026-12-03 23:49:21.12+00", "2024-05-01 12:00:00", "infinity", "2024-05-01 12:00:00 BC"]
        ) { bytes in
            let given = text(bytes)
            for (type, zoned) in [(ColumnType.timestamp, false), (ColumnType.timestamptz, true)] {
                guard case .text(let moment)? = try? ColumnType.value(given, type: type, "fuzz") else { continue }
                require(
                    moment.prefix(10) == given.prefix(10) && moment.dropFirst(10).first == "T"
                        && moment.dropFirst(11).prefix(8) == given.dropFirst(11).prefix(8),
                    "a moment keeps its day and time")
                require(!zoned || (moment.utf8.count == 24 && moment.hasSuffix("Z")), "a zoned moment is to the millisecond, in UTC")
            }
        },
        FuzzTarget(
            "s3-listing", "a page of an object store's ListObjectsV2 answer",
            examples: [
                "<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>blobs/aa/bb/x</Key><LastModified>2026-12-01T10:00:00.000Z</LastModified></Contents><NextContinuationToken>t</NextContinuationToken></ListBucketResult>"
            ]
        ) { bytes in
            let page = ListingPage(Array(bytes))
            // An object needs a <Key></Key> and a </Contents> of its own: a key is never used twice.
            require(page.objects.count * 22 <= bytes.count, "each object was in the page")
        },
        FuzzTarget(
            "s3-multipart", "an object store's answers to the start and the end of an upload in parts, and its answers' header lines",
            examples: [
                "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>2~abc</UploadId></InitiateMultipartUploadResult>",
                "<CompleteMultipartUploadResult><ETag>&quot;x-3&quot;</ETag></CompleteMultipartUploadResult>",
                "ETag: \"d41d8cd98f00b204e9800998ecf8427e\"\r\n",
            ]
        ) { bytes in
            if let id = MultipartAnswer.uploadID(Array(bytes)) {
                require(!id.isEmpty && text(bytes).contains("<UploadId>"), "an upload id is the answer's")
            }
            if MultipartAnswer.completed(Array(bytes)) { require(!text(bytes).contains("<Error>"), "an error is never a completion") }
            if let (name, _) = ResponseHeader.parse(text(bytes)) {
                require(!name.isEmpty && name == name.lowercased(), "names are lowercased")
            }
        },
        FuzzTarget(
            "forwarded-for", "X-Forwarded-For headers a trusted proxy passed on",
            examples: ["198.51.100.7", "127.0.0.1, 198.51.100.7\u{0}10.0.0.3", "2001:db8::1, unknown"]
        ) { bytes in
            let headers = text(bytes).split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            let proxies: Set<IPAddress> = [IPAddress("10.0.0.2")!, IPAddress("10.0.0.3")!]
            let client = ForwardedFor(proxies: proxies).client(peer: "10.0.0.2", forwarded: headers)
            require(client.throughProxy == !headers.isEmpty, "what a proxy forwarded is forwarded")
            require(
                client.address == ForwardedFor.unknown || IPAddress(client.address).map { !proxies.contains($0) } == true,
                "the client is no proxy")
        },
    ]
}
