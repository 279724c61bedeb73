public import Foundation
public import Storage

/// Where a bucket is and who signs for it: `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and `AWS_REGION`, as every S3 tool reads them.
public struct S3Bucket: Sendable {
    /// `http://host:port` or `https://host`; requests name the bucket in the path, which every
    /// S3 store (radosgw, MinIO, AWS) accepts without DNS names per bucket.
    public var endpoint: String
    public var name: String
    public var region: String
    public var accessKeyID: String
    public var secretAccessKey: String

    public init(endpoint: String, name: String, region: String, accessKeyID: String, secretAccessKey: String) {
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        self.name = name
        self.region = region
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }

    /// What is wrong with a bucket's settings, said for the command line.
    public struct ConfigurationError: Error, Sendable {
        public let message: String
    }

    /// `s3://BUCKET`, with the endpoint and the keys from the environment.
    public static func from(url: String, environment: [String: String]) throws(ConfigurationError) -> S3Bucket {
        let name = String(url.dropFirst("s3://".count))
        guard url.hasPrefix("s3://"), !name.isEmpty, !name.contains("/") else {
            throw ConfigurationError(message: "--storage takes s3://BUCKET.")
        }
        let needed = ["AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]
        let missing = needed.filter { (environment[$0] ?? "").isEmpty }
        guard missing.isEmpty, let endpoint = environment["AWS_ENDPOINT_URL"], let key = environment["AWS_ACCESS_KEY_ID"],
            let secret = environment["AWS_SECRET_ACCESS_KEY"]
        else {
            throw ConfigurationError(message: "S3 storage needs \(missing.joined(separator: ", ")) in the environment.")
        }
        return S3Bucket(
            endpoint: endpoint, name: name, region: environment["AWS_REGION"] ?? "us-east-1", accessKeyID: key, secretAccessKey: secret)
    }

    var host: String { endpoint.components(separatedBy: "://").last ?? endpoint }
}

/// The S3 calls a blob store needs, on one bucket, each signed with SigV4 and sent through
/// libcurl; they block, so callers make them on an executor of theirs.
public struct S3Client: Sendable {
    public let bucket: S3Bucket
    private let signer: SigV4Signer

    public init(bucket: S3Bucket) {
        self.bucket = bucket
        signer = SigV4Signer(accessKeyID: bucket.accessKeyID, secretAccessKey: bucket.secretAccessKey, region: bucket.region)
    }

    /// Makes the bucket; one that is there already, and ours, is no error.
    public func createBucket() throws(StorageError) {
        let reply = try send("PUT", "")
        guard reply.status == 200 || Self.errorCode(reply.body) == "BucketAlreadyOwnedByYou" else {
            throw Self.refusal(reply, "create the bucket")
        }
    }

    /// Uploads a file whose SHA-256 is known: the store checks the bytes against it, so what
    /// lands is exactly what was staged.
    public func put(_ key: String, file path: String, size: Int, sha256: String) throws(StorageError) {
        let reply = try send("PUT", key, payload: try Self.payload(sha256), body: .file(path: path, size: size), large: true)
        guard reply.status == 200 else { throw Self.refusal(reply, "store an original") }
    }

    /// Uploads a file whose SHA-256 is known in parts of `partSize` bytes (the last one
    /// shorter). The file must hash to `sha256` before anything is sent, and the store checks
    /// each part against the SHA-256 its request names, so what lands is exactly what was
    /// staged, as with `put`. An upload that fails is aborted, so no parts are left in the bucket.
    public func putInParts(_ key: String, file path: String, size: Int, sha256: String, partSize: Int) throws(StorageError) {
        let digests = try FileDigest.sha256(ofPartsOf: path, size: size, partSize: partSize)
        guard digests.whole == sha256 else {
            throw StorageError(.io, "A file changed after it was staged.", detail: "SHA-256 \(digests.whole), staged as \(sha256)")
        }
        let started = try send("POST", key, query: [.init("uploads", "")])
        guard started.status == 200, let upload = MultipartAnswer.uploadID(started.body) else {
            throw Self.refusal(started, "start an upload in parts")
        }
        do throws(StorageError) {
            var parts: [String] = []
            var offset = 0
            while offset < size {
                let length = min(partSize, size - offset)
                let reply = try send(
                    "PUT", key, query: [.init("partNumber", String(parts.count + 1)), .init("uploadId", upload)],
                    payload: try Self.payload(digests.parts[parts.count]),
                    body: .part(path: path, offset: offset, size: length), large: true)
                guard reply.status == 200, let etag = reply.headers["etag"] else {
                    throw Self.refusal(reply, "store a part of an original")
                }
                parts.append(etag)
                offset += length
            }
            let list = parts.enumerated().map {
                "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(S3XML.escaped($0.element))</ETag></Part>"
            }
            let body = Array("<CompleteMultipartUpload>\(list.joined())</CompleteMultipartUpload>".utf8)
            let reply = try send("POST", key, query: [.init("uploadId", upload)], payload: PayloadHash(sha256Of: body), body: .bytes(body))
            guard reply.status == 200, MultipartAnswer.completed(reply.body) else {
                throw Self.refusal(reply, "put an original's parts together")
            }
        } catch {
            _ = try? send("DELETE", key, query: [.init("uploadId", upload)])
            throw error
        }
    }

    /// Uploads a staged file in one request, or in parts of `partSize` when it is larger (S3 takes
    /// at most 5 GiB in one PUT, and a failure then costs one part's retry, not the whole file).
    public func put(_ key: String, staged: StagedFile, partSize: Int) throws(StorageError) {
        if staged.size > partSize {
            let part = max(partSize, (staged.size + Self.mostParts - 1) / Self.mostParts)
            try putInParts(key, file: staged.path, size: staged.size, sha256: staged.hash, partSize: part)
        } else {
            try put(key, file: staged.path, size: staged.size, sha256: staged.hash)
        }
    }

    public static let defaultPartSize = 64 << 20
    /// S3's own bounds: parts of at least 5 MiB (but the last), at most 10,000 of them.
    public static let smallestPart = 5 << 20
    static let mostParts = 10_000

    public func exists(_ key: String) throws(StorageError) -> Bool {
        let reply = try send("HEAD", key)
        switch reply.status {
        case 200: return true
        case 404: return false
        default: throw Self.refusal(reply, "look for an original")
        }
    }

    /// Downloads an object into `path`, or onto its end; `notFound` when there is none.
    public func get(_ key: String, to path: String, appending: Bool = false) throws(StorageError) {
        let reply = try send("GET", key, into: appending ? .appending(path) : .file(path), large: true)
        guard reply.status == 200 else {
            if !appending { unlink(path) }
            if reply.status == 404 { throw StorageError(.notFound, "An original is missing from the library.") }
            throw Self.refusal(reply, "read an original")
        }
    }

    /// Deletes an object; one that is not there is no error.
    public func delete(_ key: String) throws(StorageError) {
        let reply = try send("DELETE", key)
        guard reply.status == 204 || reply.status == 200 || reply.status == 404 else { throw Self.refusal(reply, "delete an original") }
    }

    /// Every object under `prefix`, with its last change, page after page.
    public func list(prefix: String) throws(StorageError) -> [(key: String, modified: Date)] {
        var objects: [(String, Date)] = []
        var token: String?
        repeat {
            var query = [SignableRequest.QueryItem("list-type", "2"), .init("prefix", prefix)]
            if let token { query.append(.init("continuation-token", token)) }
            let reply = try send("GET", "", query: query)
            guard reply.status == 200 else { throw Self.refusal(reply, "list the originals") }
            let page = ListingPage(reply.body)
            guard page.isWellFormed else { throw StorageError(.unavailable, "The object store gave a listing that does not read.") }
            objects += page.objects
            token = page.isTruncated ? page.nextToken : nil
        } while token != nil
        return objects
    }

    private func send(
        _ method: String, _ key: String, query: [SignableRequest.QueryItem] = [], payload: PayloadHash = PayloadHash(sha256Of: []),
        body: HTTPExchange.Body = .none, into destination: HTTPExchange.Destination = .memory, large: Bool = false
    ) throws(StorageError) -> HTTPExchange.Reply {
        var request = SignableRequest(
            method: method, host: bucket.host, path: "/\(bucket.name)" + (key.isEmpty ? "" : "/\(key)"), query: query)
        do {
            try signer.sign(&request, date: Date(), payloadHash: payload)
        } catch {
            throw StorageError(.database, "An object store request could not be signed.", detail: error.message)
        }
        var deadlines = HTTPExchange.Deadlines()
        // A body of gigabytes takes as long as it takes, as long as bytes keep moving.
        if large { deadlines.total = .seconds(24 * 3600) }
        let scheme = bucket.endpoint.components(separatedBy: "://").first ?? "http"
        return try HTTPExchange.perform(
            method, url: "\(scheme)://\(request.host)\(request.target)", headers: request.headers, body: body, into: destination,
            deadlines: deadlines)
    }

    private static func payload(_ sha256: String) throws(StorageError) -> PayloadHash {
        do {
            return try PayloadHash(hex: sha256)
        } catch {
            throw StorageError(.database, "A blob's hash is not a SHA-256.", detail: error.message)
        }
    }

    /// An answer that is not the one asked for. Whatever the store says (a 5xx, or a 403 that a
    /// store with a stopped disk gives for good keys), the request did nothing and may be tried
    /// again: an outage.
    private static func refusal(_ reply: HTTPExchange.Reply, _ what: String) -> StorageError {
        StorageError(.unavailable, "The object store did not \(what).", detail: "HTTP \(reply.status) \(errorCode(reply.body) ?? "")")
    }

    private static func errorCode(_ body: [UInt8]) -> String? {
        S3XML.elements("Code", in: Substring(String(decoding: body, as: UTF8.self))).first.map(String.init)
    }
}
