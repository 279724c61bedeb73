internal import CMicroHTTPD
internal import Glibc
internal import Memo

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
        /// A streamed body whose producer is to start once the response is queued.
        let stream: StreamPipe?
        /// Whether queueing it is the end of our reference (not for a `PreparedBody`'s, which it keeps).
        var isOurs = true
    }

    let method: String
    let requestHeaders: Headers

    init(method: String, requestHeaders: Headers) {
        self.method = method
        self.requestHeaders = requestHeaders
    }

    /// nil when libmicrohttpd cannot allocate the response (the connection is then closed).
    ///
    /// It runs for every response, so the handler's headers are read only when the request's
    /// validators or range need them, and the server's own headers go straight to MHD instead
    /// of into a copy of the handler's.
    func build(_ original: Response) -> Built? {
        let conditions = ConditionalRequest(headers: requestHeaders)
        if case .prepared(let body) = original.body, original.status == 200, method == "GET", conditions.ifNoneMatch == nil,
            conditions.ifModifiedSince == nil, requestHeaders["Range"] == nil,
            let handle = body.handle(
                for: original.headers, addHeaders: { Self.add(original.headers, ServerHeaders(acceptRanges: true), to: $0) })
        {
            return Built(handle: handle, status: 200, bodyBytes: body.bytes.count, stream: nil, isOurs: false)
        }
        let shape = ResponseShape<Content>(original, method: method, requestHeaders: requestHeaders, conditions: conditions)
        let server = ServerHeaders(acceptRanges: shape.acceptRanges, contentRange: shape.contentRange)
        guard let handle = shape.content.makeResponse(offset: shape.offset, length: shape.length, sent: shape.sendsBody) else { return nil }
        Self.add(shape.response.headers, server, to: handle)
        return Built(
            handle: handle, status: shape.response.status, bodyBytes: shape.sendsBody ? shape.length : 0,
            stream: shape.sendsBody ? shape.content.stream : nil)
    }

    private static func add(_ headers: Headers, _ server: ServerHeaders, to handle: OpaquePointer) {
        headers.withCStrings { name, value in
            // MHD refuses values with CR or LF, which keeps a handler from splitting the response.
            if !server.replaces(name) { _ = MHD_add_response_header(handle, name, value) }
        }
        server.add(to: handle)
    }
}

/// The headers the server sets on a response, in place of any a handler set under those names.
private struct ServerHeaders {
    var acceptRanges = false
    var contentRange: String?

    /// Whether a handler's header gives way to one of ours. libmicrohttpd frames the body
    /// itself, so a handler's framing headers would contradict it.
    func replaces(_ name: UnsafePointer<CChar>) -> Bool {
        strcasecmp(name, "X-Content-Type-Options") == 0 || strcasecmp(name, "Content-Length") == 0
            || strcasecmp(name, "Transfer-Encoding") == 0 || (acceptRanges && strcasecmp(name, "Accept-Ranges") == 0)
            || (contentRange != nil && strcasecmp(name, "Content-Range") == 0)
    }

    func add(to response: OpaquePointer) {
        if acceptRanges { _ = MHD_add_response_header(response, "Accept-Ranges", "bytes") }
        if let contentRange { _ = MHD_add_response_header(response, "Content-Range", contentRange) }
        _ = MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    }
}

/// A response body: bytes we copy into MHD, kept bytes MHD sends from where they are, an open
/// file (or a range of it) MHD sends with sendfile and closes, or a pipe MHD reads as its
/// producer fills it.
private enum Content: ShapedContent {
    case bytes([UInt8], rangeable: Bool)
    case kept(StableBytes)
    case file(FilePart)
    case pipe(StreamPipe)

    static func file(at path: String, range: Range<Int>?) -> Content? {
        FilePart.open(path, range: range).map(Content.file)
    }

    static func stream(_ body: StreamedBody) -> Content {
        .pipe(StreamPipe(body))
    }

    var size: Int {
        switch self {
        case .bytes(let bytes, _): bytes.count
        case .kept(let bytes): bytes.count
        case .file(let part): part.size
        case .pipe(let pipe): pipe.size
        }
    }

    var isRangeable: Bool {
        switch self {
        case .bytes(_, let rangeable): rangeable
        case .kept, .file: true
        case .pipe: false
        }
    }

    var stream: StreamPipe? {
        if case .pipe(let pipe) = self { return pipe }
        return nil
    }

    func close() {
        if case .file(let part) = self { part.close() }
    }

    /// Up to this many bytes of a file are read into memory, so that libmicrohttpd sends them with
    /// the headers in one write (one packet for a thumbnail); it sends a file descriptor's bytes
    /// with sendfile, after the headers, which costs the client a second wake-up.
    static let smallFileLimit = 64 * 1024

    /// The bytes of a small file in a response of their own; nil (and the descriptor still open)
    /// if they cannot be read as they were measured.
    private static func read(_ part: FilePart, offset: Int, length: Int) -> OpaquePointer? {
        guard let buffer = malloc(max(length, 1)) else { return nil }
        guard part.read(into: buffer, at: offset, count: length),
            let response = MHD_create_response_from_buffer_with_free_callback(length, buffer, { free($0) })
        else {
            free(buffer)
            return nil
        }
        part.close()
        return response
    }

    /// MHD takes the file descriptor over, also when the response is never sent. A body that is
    /// not `sent` (HEAD, 304) still gives the length, but a file's bytes are then not read.
    func makeResponse(offset: Int, length: Int, sent: Bool) -> OpaquePointer? {
        switch self {
        case .bytes(let bytes, _):
            return bytes[offset..<offset + length].withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(length, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .kept(let bytes):
            return bytes.response(sending: offset..<offset + length)
        case .file(let part):
            if sent, length <= Self.smallFileLimit, let response = Self.read(part, offset: offset, length: length) {
                return response
            }
            guard let response = MHD_create_response_from_fd_at_offset64(UInt64(length), part.descriptor, UInt64(part.start + offset))
            else {
                part.close()
                return nil
            }
            return response
        case .pipe(let pipe):
            return pipe.makeResponse()
        }
    }
}
