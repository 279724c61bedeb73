/// The parts of an HTTP request that Signature Version 4 covers, kept as the request will be sent:
/// whatever a signer adds (`x-amz-date`, `Authorization`, the `X-Amz-*` query of a presigned URL)
/// lands here, so sending `method`, `host`, `target` and `headers` sends exactly what was signed.
public struct SignableRequest: Sendable, Equatable {
    /// One `name=value` of the query, neither percent-encoded.
    public struct QueryItem: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String = "") {
            self.name = name
            self.value = value
        }
    }

    /// One header line, as given: canonical form (lower case, trimmed) is only for signing.
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    /// The `Host` header: the name, and the port when it is not the scheme's default. It is signed
    /// from here, so it may not also be among `headers`.
    public var host: String
    /// The path, not percent-encoded (`/bucket/IMG 0001.jpg`); `target` encodes it.
    public var path: String
    public var query: [QueryItem]
    public private(set) var headers: [Header]

    public init(method: String, host: String, path: String, query: [QueryItem] = [], headers: [Header] = []) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The request-target to send: the encoded path and query, the query in the order it was given
    /// (the signature covers it sorted, so any order the server receives it in verifies).
    public var target: String {
        let path = URIEncoding.path(path)
        guard !query.isEmpty else { return path }
        let pairs = query.map { URIEncoding.component($0.name) + "=" + URIEncoding.component($0.value) }
        return path + "?" + pairs.joined(separator: "&")
    }

    /// The value of the header `name` (any case); repeated headers count as one, their values
    /// joined by commas as HTTP allows.
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ",")
    }

    /// Sets `name` to `value`, replacing every header of that name whatever its case.
    public mutating func setHeader(_ name: String, _ value: String) {
        removeHeader(name)
        headers.append(Header(name, value))
    }

    public mutating func removeHeader(_ name: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
    }
}
