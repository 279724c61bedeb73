/// Routes by method and path pattern. A pattern's segments are literals or `:name`, which
/// matches one non-empty segment and becomes `request.parameters["name"]`.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) async throws -> Response

    /// A handler that answers on libmicrohttpd's own thread, with no task and no suspension:
    /// for answers that are ready (a cached file), nil to leave the request to the route's
    /// `Handler`. It runs on the thread that serves other connections, so it must not block
    /// (no slow disk work, no heavy computing); errors it throws are answered like a `Handler`'s.
    public typealias FastHandler = @Sendable (Request) throws -> Response?

    /// Runs when the client went away before the end of a body the route accepts, with the bytes
    /// that arrived (at least one) as `request.body`: for a route that can keep part of a body,
    /// such as a resumable upload's piece. Nobody hears its outcome; not run once the server is
    /// stopping.
    public typealias Salvage = @Sendable (Request) async -> Void

    /// Asked once a request's headers are in and the route's body policy admits them, before a
    /// byte of the body is stored (on libmicrohttpd's thread, so it must be quick and look at
    /// nothing but the request): a response it returns is the answer, and the body is never
    /// read. For what a route's own headers show is wrong with its body, such as a piece of a
    /// resumable upload that declares more bytes than the upload may have.
    public typealias Check = @Sendable (Request) -> Response?

    /// What a route accepts as a body.
    public enum BodyPolicy: Sendable, Equatable {
        /// No body: a request with one is refused (413 when it declares a length).
        case none
        /// A body of at most this many bytes, streamed to a temp file; with `sha256`, hashed as it
        /// streams (`RequestBody.sha256`), for a route that names what it keeps by its bytes.
        case file(maxBytes: Int, sha256: Bool = false)

        var hashesBody: Bool {
            if case .file(_, let sha256) = self { return sha256 }
            return false
        }
    }

    /// A class, so that trying a route against a request retains one reference, not each field.
    public final class Route: Sendable {
        public let method: String
        public let pattern: String
        public let body: BodyPolicy
        let segments: [Segment]
        let handler: Handler
        let fast: FastHandler?
        let salvage: Salvage?
        let check: Check?

        init(
            method: String, pattern: String, body: BodyPolicy, segments: [Segment], handler: @escaping Handler, fast: FastHandler?,
            salvage: Salvage?, check: Check?
        ) {
            self.method = method
            self.pattern = pattern
            self.body = body
            self.segments = segments
            self.handler = handler
            self.fast = fast
            self.salvage = salvage
            self.check = check
        }
    }

    enum Segment: Sendable, Equatable {
        /// The segment's UTF-8 bytes, compared byte for byte.
        case literal([UInt8])
        case parameter(String)
    }

    public enum Match: Sendable {
        case found(Route, parameters: [String: String])
        /// The path exists for other methods (405, with `Allow`).
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    /// Asked for every routed request before its body is read or its handler runs (on
    /// libmicrohttpd's thread, so it must be quick); a response it returns is the answer. For
    /// rules that hold across routes, such as who may ask.
    public typealias Gate = @Sendable (Request, Route) -> Response?

    /// Asked for every answer to a routed request (the gate's refusals too), on the thread that
    /// made it, before it is sent: for headers that depend on who asks, such as CORS.
    public typealias Finish = @Sendable (Request, inout Response) -> Void

    private(set) var routes: [Route] = []
    public var gate: Gate?
    public var finish: Finish?

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, body: BodyPolicy = .none, _ handler: @escaping Handler) {
        append(method, pattern, body: body, fast: nil, salvage: nil, check: nil, handler)
    }

    /// A route with a body that `check` may refuse from the request's headers before any of it
    /// is stored, and whose cut-short part `salvage` may keep.
    public mutating func add(
        _ method: String, _ pattern: String, body: BodyPolicy, check: Check? = nil, handler: @escaping Handler, salvage: Salvage? = nil
    ) {
        append(method, pattern, body: body, fast: nil, salvage: salvage, check: check, handler)
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add("GET", pattern, handler) }
    /// A GET route whose `fast` handler answers first, on libmicrohttpd's thread; `handler` runs
    /// as usual when it returns nil.
    public mutating func get(_ pattern: String, fast: @escaping FastHandler, _ handler: @escaping Handler) {
        append("GET", pattern, body: .none, fast: fast, salvage: nil, check: nil, handler)
    }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add("DELETE", pattern, handler) }
    public mutating func post(_ pattern: String, body: BodyPolicy = .none, _ handler: @escaping Handler) {
        add("POST", pattern, body: body, handler)
    }
    public mutating func put(_ pattern: String, body: BodyPolicy = .none, _ handler: @escaping Handler) {
        add("PUT", pattern, body: body, handler)
    }

    private mutating func append(
        _ method: String, _ pattern: String, body: BodyPolicy, fast: FastHandler?, salvage: Salvage?, check: Check?,
        _ handler: @escaping Handler
    ) {
        let segments = pattern.split(separator: "/").map { part in
            part.hasPrefix(":") ? Segment.parameter(String(part.dropFirst())) : Segment.literal(Array(part.utf8))
        }
        routes.append(
            Route(
                method: method, pattern: pattern, body: body, segments: segments, handler: handler, fast: fast, salvage: salvage,
                check: check))
    }

    /// The route for a method and a decoded path; HEAD is served by GET routes.
    ///
    /// It runs for every request, so it works on the path's bytes: segments are found as the
    /// routes are tried, and parameters are made into strings only for the route that matches.
    public func match(method: String, path: String) -> Match {
        var path = path
        return path.withUTF8 { path in
            var allowed: [String] = []
            for route in routes where Self.fits(route.segments, path) {
                if route.method == method || (method == "HEAD" && route.method == "GET") {
                    return .found(route, parameters: Self.parameters(route.segments, path))
                }
                allowed.append(route.method)
            }
            if allowed.contains("GET") { allowed.append("HEAD") }
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
        }
    }

    private static func fits(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = PathSegments(path: path)
        for segment in segments {
            guard let part = parts.next() else { return false }
            if case .literal(let literal) = segment, literal.count != part.count || !literal.elementsEqual(path[part]) { return false }
        }
        return parts.next() == nil
    }

    private static func parameters(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, PathSegments(path: path)) {
            if case .parameter(let name) = segment { parameters[name] = String(decoding: path[part], as: UTF8.self) }
        }
        return parameters
    }

    /// The non-empty segments between slashes, as ranges of the path's bytes.
    private struct PathSegments: Sequence, IteratorProtocol {
        let path: UnsafeBufferPointer<UInt8>
        var index = 0

        init(path: UnsafeBufferPointer<UInt8>) {
            self.path = path
        }

        mutating func next() -> Range<Int>? {
            while index < path.count, path[index] == UInt8(ascii: "/") { index += 1 }
            guard index < path.count else { return nil }
            let start = index
            while index < path.count, path[index] != UInt8(ascii: "/") { index += 1 }
            return start..<index
        }
    }
}
