/// A body as `ResponseShape` needs to know it: its size, and whether ranges of it may be asked.
protocol ShapedContent {
    var size: Int { get }
    /// Only real content takes part in ranges; an empty body or an error body does not, nor a
    /// stream, which is made from its start.
    var isRangeable: Bool { get }
    /// Lets go of what opening it took (a file descriptor), when another body replaces it.
    func close()
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

    /// `open` gives the response with its body in hand (a file that cannot be opened makes a 404).
    init(
        _ original: Response, method: String, requestHeaders: Headers, conditions: ConditionalRequest,
        open: (Response) -> (Response, Content)
    ) {
        (response, content) = open(original)
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
                    (response, content) = open(refusal)
                    length = content.size
                }
            }
        }
        sendsBody = method != "HEAD" && response.status != 304 && response.status != 204 && response.status >= 200
    }
}
