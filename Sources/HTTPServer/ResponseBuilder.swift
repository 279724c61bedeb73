internal import CMicroHTTPD
internal import Glibc

/// Turns a handler's `Response` into a libmicrohttpd response: opens the file of a file body,
/// answers validators (304) and ranges (206, 416), and adds the headers every response carries.
///
/// libmicrohttpd writes `Content-Length` itself, from the size of what we hand it, and leaves the
/// body out for HEAD and 304, so HEAD and 304 get the same length as the full GET would.
struct ResponseBuilder {
    /// A response MHD owns one reference to, ready for `MHD_queue_response`.
    struct Built {
        let handle: OpaquePointer
        let status: Int
        /// Body bytes that will go on the wire, for the access log.
        let bodyBytes: Int
    }

    let method: String
    let conditions: ConditionalRequest
    let range: String?

    init(method: String, requestHeaders: Headers) {
        self.method = method
        self.conditions = ConditionalRequest(headers: requestHeaders)
        self.range = requestHeaders["Range"]
    }

    /// Headers a 304 keeps (RFC 9110, 15.4.5); the rest describe a body that is not sent.
    private static let notModifiedHeaders: Set<String> = ["etag", "cache-control", "last-modified", "vary", "expires", "content-location"]

    /// libmicrohttpd frames the body; a handler's framing headers would contradict it.
    private static let framingHeaders: Set<String> = ["content-length", "transfer-encoding"]

    /// nil when libmicrohttpd cannot allocate the response (the connection is then closed).
    func build(_ original: Response) -> Built? {
        var (response, content) = Self.open(original)
        var offset = 0
        var length = content.size
        let etag = response.headers["ETag"]
        let lastModified = response.headers["Last-Modified"]
        if response.status == 200, method == "GET" || method == "HEAD", conditions.isNotModified(etag: etag, lastModified: lastModified) {
            response = Response(
                status: 304, headers: Headers(response.headers.filter { Self.notModifiedHeaders.contains($0.name.lowercased()) }),
                body: .empty)
        } else if response.status == 200, content.isRangeable {
            response.headers["Accept-Ranges"] = "bytes"
            if method == "GET", conditions.allowsRange(etag: etag, lastModified: lastModified) {
                switch RangeRequest(header: range, total: content.size) {
                case .whole:
                    break
                case .part(let start, let count):
                    response.status = 206
                    response.headers["Content-Range"] = "bytes \(start)-\(start + count - 1)/\(content.size)"
                    offset = start
                    length = count
                case .unsatisfiable:
                    var refusal = HTTPError(416, "range_not_satisfiable", "The requested range is outside the content.").response
                    refusal.headers["Content-Range"] = "bytes */\(content.size)"
                    content.close()
                    (response, content) = Self.open(refusal)
                    length = content.size
                }
            }
        }
        response.headers["X-Content-Type-Options"] = "nosniff"
        guard let handle = content.makeResponse(offset: offset, length: length) else { return nil }
        for (name, value) in response.headers where !Self.framingHeaders.contains(name.lowercased()) {
            // MHD refuses values with CR or LF, which keeps a handler from splitting the response.
            _ = MHD_add_response_header(handle, name, value)
        }
        let sendsBody = method != "HEAD" && response.status != 304 && response.status != 204 && response.status >= 200
        return Built(handle: handle, status: response.status, bodyBytes: sendsBody ? length : 0)
    }

    /// The response with its body in hand; a file that cannot be opened becomes a 404.
    private static func open(_ response: Response) -> (Response, Content) {
        switch response.body {
        case .empty:
            return (response, .bytes([], rangeable: false))
        case .bytes(let bytes):
            return (response, .bytes(bytes, rangeable: true))
        case .file(let path):
            if let file = Content.file(at: path) { return (response, file) }
            let missing = HTTPError.notFound()
            return (missing.response, .bytes(missing.jsonBody, rangeable: false))
        }
    }
}

/// A response body: bytes we copy into MHD, or an open file MHD sends with sendfile and closes.
private enum Content {
    case bytes([UInt8], rangeable: Bool)
    case file(descriptor: Int32, size: Int)

    static func file(at path: String) -> Content? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            _ = Glibc.close(descriptor)
            return nil
        }
        return .file(descriptor: descriptor, size: Int(status.st_size))
    }

    var size: Int {
        switch self {
        case .bytes(let bytes, _): bytes.count
        case .file(_, let size): size
        }
    }

    /// Only real content takes part in ranges; an empty body or an error body does not.
    var isRangeable: Bool {
        switch self {
        case .bytes(_, let rangeable): rangeable
        case .file: true
        }
    }

    func close() {
        if case .file(let descriptor, _) = self { _ = Glibc.close(descriptor) }
    }

    /// MHD takes the file descriptor over, also when the response is never sent.
    func makeResponse(offset: Int, length: Int) -> OpaquePointer? {
        switch self {
        case .bytes(let bytes, _):
            return bytes[offset..<offset + length].withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(length, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let descriptor, _):
            guard let response = MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset)) else {
                _ = Glibc.close(descriptor)
                return nil
            }
            return response
        }
    }
}
