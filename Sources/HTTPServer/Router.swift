/// Routes by method and path pattern. A pattern's segments are literals or `:name`, which
/// matches one non-empty segment and becomes `request.parameters["name"]`.
public struct Router: Sendable {
    public typealias Handler = @Sendable (Request) async throws -> Response

    /// What a route accepts as a body.
    public enum BodyPolicy: Sendable, Equatable {
        /// No body: a request with one is refused (413 when it declares a length).
        case none
        /// A body of at most this many bytes, streamed to a temp file.
        case file(maxBytes: Int)
    }

    public struct Route: Sendable {
        public let method: String
        public let pattern: String
        public let body: BodyPolicy
        let segments: [Segment]
        let handler: Handler
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public enum Match: Sendable {
        case found(Route, parameters: [String: String])
        /// The path exists for other methods (405, with `Allow`).
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    private(set) var routes: [Route] = []

    public init() {}

    public mutating func add(_ method: String, _ pattern: String, body: BodyPolicy = .none, _ handler: @escaping Handler) {
        let segments = pattern.split(separator: "/").map { part in
            part.hasPrefix(":") ? Segment.parameter(String(part.dropFirst())) : Segment.literal(String(part))
        }
        routes.append(Route(method: method, pattern: pattern, body: body, segments: segments, handler: handler))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add("GET", pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add("DELETE", pattern, handler) }
    public mutating func post(_ pattern: String, body: BodyPolicy = .none, _ handler: @escaping Handler) {
        add("POST", pattern, body: body, handler)
    }
    public mutating func put(_ pattern: String, body: BodyPolicy = .none, _ handler: @escaping Handler) {
        add("PUT", pattern, body: body, handler)
    }

    /// The route for a method and a decoded path; HEAD is served by GET routes.
    public func match(method: String, path: String) -> Match {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.bind(route.segments, parts) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route, parameters: parameters)
            }
            allowed.append(route.method)
        }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    private static func bind(_ segments: [Segment], _ parts: [String]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal): guard literal == part else { return nil }
            case .parameter(let name): parameters[name] = part
            }
        }
        return parameters
    }
}
