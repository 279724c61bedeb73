internal import Memo
internal import Synchronization

/// Asks a router as a client on a socket would, without one: the target is checked and routed,
/// the gate and the route's check run, a body is stored in the body folder for the handler, and
/// the answer is shaped for validators and ranges, as the server does each of these
/// (`Responder`, `ResponseShape`). For tests of routes and tools in the same process, as
/// Hummingbird's router testing does; what only a connection has (timeouts, limits on
/// connections, bodies cut short, the server's headers `Date` and `Connection`) needs `Server`.
public struct InProcessClient: Sendable {
    /// An answer with its whole body.
    public struct Reply: Sendable {
        public let status: Int
        public let headers: Headers
        public let body: [UInt8]
    }

    /// A streamed body that ended before its size: a client on a socket sees its connection closed.
    public struct CutShort: Error, Sendable {
        public let received: Int
        public let size: Int
    }

    private let responder: Responder
    private let bodyDirectory: String
    private let forwardedFor: ForwardedFor

    /// `bodyDirectory` and `forwardedFor` as the server's `Configuration` would have them.
    public init(
        router: Router, bodyDirectory: String, forwardedFor: ForwardedFor = ForwardedFor(proxies: []),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        responder = Responder(router: router, log: log)
        self.bodyDirectory = bodyDirectory
        self.forwardedFor = forwardedFor
    }

    /// `target` as a request line carries it (path and query, percent-encoded); `from` is the
    /// client's address as the socket's peer would be. A body is sent with its Content-Length.
    public func send(
        _ method: String, _ target: String, headers: Headers = Headers(), body: [UInt8]? = nil, from peer: String = "127.0.0.1"
    ) async throws(CutShort) -> Reply {
        var headers = headers
        if let body, headers["Content-Length"] == nil { headers["Content-Length"] = String(body.count) }
        let lengths = headers.values("Content-Length")
        let bodyFollows = lengths.contains { $0 != "0" }
        let decision: Responder.Decision
        do {
            let uri = try RawURI(Array(target.utf8))
            switch responder.route(method: method, uri: uri) {
            case .refused(let response):
                decision = .refuse(response, now: bodyFollows)
            case .routed(let routed):
                let client = forwardedFor.client(peer: peer, headers: headers)
                decision = responder.admit(
                    routed, method: method, headers: headers, client: client, lengths: lengths, bodyFollows: bodyFollows)
            }
        } catch {
            decision = .refuse(error.response, now: bodyFollows)
        }
        let response: Response
        switch decision {
        case .refuse(let refusal, _):
            response = refusal
        case .run(let route, let request):
            if let fast = route.fast, let answer = responder.respondNow(to: request, with: fast) {
                response = answer
            } else {
                response = await respond(to: request, with: route.handler)
            }
        case .receive(var request, let route, let maxBytes, _):
            let bytes = body ?? []
            guard bytes.count <= maxBytes else {
                response = Responder.tooLarge(maxBytes).response
                break
            }
            guard var file = try? BodyFile.create(in: bodyDirectory, hashing: route.body.hashesBody) else {
                response = HTTPError(500, "internal", "Something went wrong on the server.").response
                break
            }
            defer { file.discard() }
            var stored = true
            bytes.withUnsafeBytes { buffer in
                do throws(BodyFile.Failure) {
                    try file.append(buffer)
                } catch {
                    stored = false
                }
            }
            file.close()
            guard stored else {
                response = HTTPError(500, "internal", "Something went wrong on the server.").response
                break
            }
            request.body = file.received
            response = await respond(to: request, with: route.handler)
        }
        return try await Self.shaped(response, method: method, requestHeaders: headers)
    }

    /// The handler's answer, at the priority the server runs handlers at (`ServerCore.runHandler`):
    /// a caller's own task may be one of many behind background work. A caller that gives up
    /// cancels the handler, as a client that hangs up does.
    private func respond(to request: Request, with handler: @escaping Router.Handler) async -> Response {
        let handling = Task(priority: .high) { [responder] in await responder.respond(to: request, with: handler) }
        return await withTaskCancellationHandler {
            await handling.value
        } onCancel: {
            handling.cancel()
        }
    }

    /// The reply a client would read: validators and ranges answered, the body in hand.
    private static func shaped(_ response: Response, method: String, requestHeaders: Headers) async throws(CutShort) -> Reply {
        let shape = ResponseShape<Buffered>(
            response, method: method, requestHeaders: requestHeaders, conditions: ConditionalRequest(headers: requestHeaders))
        var headers = Headers(
            shape.response.headers.filter {
                !["content-length", "transfer-encoding", "x-content-type-options"].contains($0.name.lowercased())
                    && !(shape.acceptRanges && $0.name.lowercased() == "accept-ranges")
                    && !(shape.contentRange != nil && $0.name.lowercased() == "content-range")
            })
        if shape.acceptRanges { headers["Accept-Ranges"] = "bytes" }
        if let range = shape.contentRange { headers["Content-Range"] = range }
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Content-Length"] = String(shape.length)
        guard shape.sendsBody else { return Reply(status: shape.response.status, headers: headers, body: []) }
        let bytes: [UInt8]
        switch shape.content {
        case .bytes(let all, _): bytes = Array(all[shape.offset..<shape.offset + shape.length])
        case .stream(let body): bytes = try await produce(body)
        }
        return Reply(status: shape.response.status, headers: headers, body: bytes)
    }

    /// Runs a streamed body's producer into memory, refusing bytes past its size.
    private static func produce(_ body: StreamedBody) async throws(CutShort) -> [UInt8] {
        let received = Mutex<[UInt8]>([])
        let writer = BodyWriter { bytes in
            received.withLock { received in
                guard received.count + bytes.count <= body.size else { return false }
                received += bytes
                return true
            }
        }
        let finished = (try? await body.produce(writer)) != nil
        let bytes = received.withLock { $0 }
        guard finished, bytes.count == body.size else { throw CutShort(received: bytes.count, size: body.size) }
        return bytes
    }

    /// A body in memory, or a stream still to be made.
    private enum Buffered: ShapedContent {
        case bytes([UInt8], rangeable: Bool)
        case stream(StreamedBody)

        var size: Int {
            switch self {
            case .bytes(let bytes, _): bytes.count
            case .stream(let body): body.size
            }
        }

        var isRangeable: Bool {
            if case .bytes(_, let rangeable) = self { return rangeable }
            return false
        }

        func close() {}

        static func kept(_ bytes: StableBytes) -> Buffered {
            .bytes(bytes.bytes, rangeable: true)
        }

        /// The file's bytes read whole, as the server sends them.
        static func file(at path: String, range: Range<Int>?) -> Buffered? {
            guard let part = FilePart.open(path, range: range) else { return nil }
            defer { part.close() }
            var bytes = [UInt8](repeating: 0, count: part.size)
            let read = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { part.read(into: $0, at: 0, count: part.size) } ?? true
            }
            return read ? .bytes(bytes, rangeable: true) : nil
        }
    }
}
