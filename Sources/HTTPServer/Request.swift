/// One HTTP request, as a handler sees it.
public struct Request: Sendable {
    /// GET, HEAD, POST, PUT, DELETE, ... (HEAD is routed to GET handlers).
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// Query parameters, percent-decoded; a repeated name keeps its first value.
    public var query: [String: String]
    public var headers: Headers
    /// The client's IP address.
    public var remoteAddress: String
    /// The request came through one of the operator's proxies (`ForwardedFor`): `remoteAddress`
    /// is the client it says it forwarded for, and whatever that says, the request is not this
    /// computer's own (a proxy names 127.0.0.1 for any process on its host).
    public var throughProxy: Bool
    /// Values of the route pattern's `:name` segments.
    public var parameters: [String: String]
    /// The request body, streamed to a temp file, for routes that accept one.
    public var body: RequestBody?

    public init(
        method: String, path: String, query: [String: String] = [:], headers: Headers = Headers(), remoteAddress: String = "127.0.0.1",
        throughProxy: Bool = false, parameters: [String: String] = [:], body: RequestBody? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.throughProxy = throughProxy
        self.parameters = parameters
        self.body = body
    }

    /// A path parameter, which the route guarantees exists.
    public func parameter(_ name: String) -> String {
        guard let value = parameters[name] else { preconditionFailure("the route has no parameter :\(name)") }
        return value
    }

    /// A path or query value as an integer; a 400 naming the field otherwise.
    public func integer(_ name: String, in range: ClosedRange<Int>? = nil) throws(HTTPError) -> Int? {
        guard let text = parameters[name] ?? query[name] else { return nil }
        guard let value = Int(text), range.map({ $0.contains(value) }) ?? true else {
            let bounds = range.map { " between \($0.lowerBound) and \($0.upperBound)" } ?? ""
            throw HTTPError(400, "invalid_parameter", "\(name): must be a whole number\(bounds).")
        }
        return value
    }
}

/// A request body the server streamed to a file in its body folder. The file belongs to the
/// handler: it may move it away; whatever is left is deleted once the response is sent.
public struct RequestBody: Sendable {
    public var path: String
    public var size: Int
    /// The SHA-256 of the bytes as they arrived (lowercase hex), hashed while they streamed to
    /// disk so that no one reads the file again to name it, where the route asked for it
    /// (`BodyPolicy.file(maxBytes:sha256:)`); nil otherwise.
    public var sha256: String?

    public init(path: String, size: Int, sha256: String? = nil) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}
