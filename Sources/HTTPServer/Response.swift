/// One HTTP response. The server adds `Content-Length`, `X-Content-Type-Options: nosniff` and
/// `Date`, answers `HEAD`, and, for bodies with an `ETag` or `Last-Modified`, `If-None-Match`
/// (304) and single `Range` requests (206, 416).
public struct Response: Sendable {
    public var status: Int
    public var headers: Headers
    public var body: Body

    public enum Body: Sendable {
        case empty
        case bytes([UInt8])
        /// Bytes answered many times over, made into libmicrohttpd's response once (see `PreparedBody`).
        case prepared(PreparedBody)
        /// A file, or the bytes `range` of it, sent with sendfile; the server opens it when the
        /// response is queued. A file too short for its range is answered 404, as a missing one.
        case file(path: String, range: Range<Int>? = nil)
        /// Bytes made while they are sent, of a size known up front (a download's archive).
        case stream(StreamedBody)
    }

    public init(status: Int = 200, headers: Headers = Headers(), body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func bytes(_ bytes: [UInt8], contentType: String, status: Int = 200) -> Response {
        Response(status: status, headers: Headers([("Content-Type", contentType)]), body: .bytes(bytes))
    }

    public static func text(_ text: String, status: Int = 200) -> Response {
        bytes(Array(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
    }

    /// A 303 to `location`: where a form's POST, or a page that needs a sign-in, sends the browser.
    public static func seeOther(_ location: String, saying text: String) -> Response {
        var response = Self.text(text, status: 303)
        response.headers["Location"] = location
        return response
    }

    /// Who may show a page in a frame.
    public enum Framing: String, Sendable {
        case none = "'none'"
        /// Pages of the same origin only: for a page that is presented inside another of ours.
        case sameOrigin = "'self'"
    }

    /// A page of ours, under a strict Content-Security-Policy: our own scripts, styles and
    /// images only, and no framing by other sites.
    public static func html(_ html: String, status: Int = 200, framing: Framing = .none) -> Response {
        var response = bytes(Array(html.utf8), contentType: "text/html; charset=utf-8", status: status)
        response.headers["Content-Security-Policy"] = contentSecurityPolicy(framing: framing)
        return response
    }

    public static func contentSecurityPolicy(framing: Framing = .none) -> String {
        "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; style-src 'self'; script-src 'self'; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-src 'self'; frame-ancestors \(framing.rawValue); "
            + "form-action 'self'"
    }

    /// A file, or the bytes `range` of it; `etag` and `lastModified` enable conditional and range
    /// requests (a request's range is then within `range`).
    public static func file(
        _ path: String, range: Range<Int>? = nil, contentType: String, etag: String? = nil, lastModified: String? = nil,
        cacheControl: String? = nil
    ) -> Response {
        var headers = Headers([("Content-Type", contentType)])
        if let etag { headers["ETag"] = etag }
        if let lastModified { headers["Last-Modified"] = lastModified }
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        return Response(headers: headers, body: .file(path: path, range: range))
    }
}
