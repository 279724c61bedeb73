internal import Memo

/// A body as `ResponseShape` needs to know it: its size, and whether ranges of it may be asked;
/// and how each kind of `Response.Body` becomes one.
protocol ShapedContent {
    var size: Int { get }
    /// Only real content takes part in ranges; an empty body or an error body does not, nor a
    /// stream, which is made from its start.
    var isRangeable: Bool { get }
    /// Lets go of what opening it took (a file descriptor), when another body replaces it.
    func close()

    static func bytes(_ bytes: [UInt8], rangeable: Bool) -> Self
    static func kept(_ bytes: StableBytes) -> Self
    /// nil when the file cannot be sent as its range says (`FilePart.open`).
    static func file(at path: String, range: Range<Int>?) -> Self?
    static func stream(_ body: StreamedBody) -> Self
}

extension ShapedContent {
    /// The response with its body in hand; a file that cannot be opened is answered 404, as a
    /// missing one.
    static func opening(_ response: Response) -> (Response, Self) {
        switch response.body {
        case .empty:
            return (response, .bytes([], rangeable: false))
        case .bytes(let bytes):
            return (response, .bytes(bytes, rangeable: true))
        case .prepared(let body):
            return (response, .kept(body.bytes))
        case .file(let path, let range):
            if let file = file(at: path, range: range) { return (response, file) }
            let missing = HTTPError.notFound()
            return (missing.response, .bytes(missing.jsonBody, rangeable: false))
        case .stream(let body):
            return (response, .stream(body))
        }
    }
}

/// What a handler's response becomes for the request it answers, before a byte is sent: a
/// 304 for validators that match, a 206 or a 416 for a range, and whether a body goes out at
/// all (not for HEAD, 304 or 204). libmicrohttpd's responses (`ResponseBuilder`) and
/// `InProcessClient`'s are shaped alike by it.
struct ResponseShape<Content: ShapedContent> {
    var response: Response
    var content: Content
    var acceptRanges = false
    var contentRange: String?
    var offset = 0
    var length: Int
    var sendsBody: Bool

    /// Headers a 304 keeps (RFC 9110, 15.4.5); the rest describe a body that is not sent.
    private static var notModifiedHeaders: Set<String> {
        ["etag", "cache-control", "last-modified", "vary", "expires", "content-location"]
    }

    init(_ original: Response, method: String, requestHeaders: Headers, conditions: ConditionalRequest) {
        (response, content) = Content.opening(original)
        length = content.size
        if response.status == 200, method == "GET" || method == "HEAD", conditions.ifNoneMatch != nil || conditions.ifModifiedSince != nil,
            conditions.isNotModified(etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"])
        {
            response = Response(
                status: 304, headers: Headers(response.headers.filter { Self.notModifiedHeaders.contains($0.name.lowercased()) }),
                body: .empty)
        } else if response.status == 200, content.isRangeable {
            acceptRanges = true
            if method == "GET", let range = requestHeaders["Range"],
                conditions.ifRange == nil
                    || conditions.allowsRange(etag: response.headers["ETag"], lastModified: response.headers["Last-Modified"])
            {
                switch RangeRequest(header: range, total: content.size) {
                case .whole:
                    break
                case .part(let start, let count):
                    response.status = 206
                    contentRange = "bytes \(start)-\(start + count - 1)/\(content.size)"
                    offset = start
                    length = count
                case .unsatisfiable:
                    let refusal = HTTPError(416, "range_not_satisfiable", "The requested range is outside the content.").response
                    acceptRanges = false
                    contentRange = "bytes */\(content.size)"
                    content.close()
                    (response, content) = Content.opening(refusal)
                    length = content.size
                }
            }
        }
        sendsBody = method != "HEAD" && response.status != 304 && response.status != 204 && response.status >= 200
    }
}
