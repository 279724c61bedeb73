internal import CMicroHTTPD

extension ServerCore {
    /// libmicrohttpd's access handler. For one request it is called once the headers are in,
    /// once per piece of body, once more when the body is complete, and again after a resume;
    /// the request's lifecycle says which of these this call is.
    func access(
        _ connection: Connection, _ context: RequestContext, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?, upload: UnsafeRawBufferPointer?
    ) -> MHD_Result {
        switch context.lifecycle.withLock({ $0.called() }) {
        case .start:
            return start(connection, context, url: url, method: method, version: version)
        case .handle(let route, let request):
            if let fast = route.fast, let response = responder.respondNow(to: request, with: fast) {
                return answer(response, on: connection, context)
            }
            return runHandler(route.handler, for: request, on: connection, context)
        case .receive(let route, let length):
            guard let upload else { return finishBody(on: connection, context, handler: route.handler) }
            return receive(upload, on: connection, context, length: length)
        case .answer(let response):
            return answer(response, on: connection, context)
        case .none:
            return .YES
        }
    }

    /// The first call, once the headers are in: check what only the raw request shows, route,
    /// and apply the route's body policy.
    private func start(
        _ connection: Connection, _ context: RequestContext, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        headArrived(on: connection)
        let methodName = method.map { String(cString: $0) } ?? "-"
        let received = connection.headers
        let headers = received.fields
        context.lifecycle.withLock { $0.headed(method: methodName, headers: headers) }
        let decision =
            received.wellFormed
            ? decide(connection, context, url: url, method: methodName, version: version, headers: headers)
            : .refuse(Self.invalidHeader, now: true)
        switch decision {
        case .refuse(let response, let now):
            guard !now else { return answer(response, on: connection, context) }
            context.lifecycle.withLock { $0.refuseLater(response) }
        case .run(let route, let request):
            context.lifecycle.withLock { $0.accept(route, request) }
        case .receive(let request, let route, let maxBytes, let length):
            return beginBody(of: request, route: route, maxBytes: maxBytes, length: length, on: connection, context)
        }
        return .YES
    }

    private func decide(
        _ connection: Connection, _ context: RequestContext, url: UnsafePointer<CChar>?, method: String, version: UnsafePointer<CChar>?,
        headers: Headers
    ) -> Responder.Decision {
        let lengths = headers.values("Content-Length")
        let encodings = headers.values("Transfer-Encoding")
        let bodyFollows = !encodings.isEmpty || lengths.contains { $0 != "0" }
        if isStopping {
            return .refuse(Self.shuttingDown, now: true)
        }
        if context.hidesNUL(url: url, version: version) {
            return .refuse(HTTPError.badRequest("invalid_path", "The address must not contain a NUL byte.").response, now: bodyFollows)
        }
        if let problem = Self.framingProblem(lengths: lengths, encodings: encodings) {
            return .refuse(problem.response, now: true)
        }
        let key = RoutedTargets.Key(method: method, target: context.rawURI)
        let routed: RoutedTargets.Routed
        if let known = routedTargets.routed(key) {
            routed = known
        } else {
            let uri: RawURI
            do {
                uri = try RawURI(context.rawURI)
            } catch {
                return .refuse(error.response, now: bodyFollows)
            }
            switch responder.route(method: method, uri: uri) {
            case .refused(let response):
                return .refuse(response, now: bodyFollows)
            case .routed(let found):
                routed = found
                routedTargets.keep(routed, for: key)
            }
        }
        let client = configuration.forwardedFor.client(peer: connection.clientAddress, headers: headers)
        return responder.admit(routed, method: method, headers: headers, client: client, lengths: lengths, bodyFollows: bodyFollows)
    }

    /// Requests whose length two parts of the chain could read differently (request smuggling).
    private static func framingProblem(lengths: [String], encodings: [String]) -> HTTPError? {
        if lengths.count > 1 {
            return .badRequest("invalid_content_length", "Send one Content-Length header.")
        }
        if !lengths.isEmpty && !encodings.isEmpty {
            return .badRequest("invalid_content_length", "Send either Content-Length or Transfer-Encoding, not both.")
        }
        if encodings.count > 1 || encodings.contains(where: { $0.lowercased() != "chunked" }) {
            return .badRequest("invalid_transfer_encoding", "The only transfer encoding accepted is chunked.")
        }
        return nil
    }

    /// Where this request ends is in doubt (see `HeaderLine`), so the connection is closed after
    /// the answer and nothing after the head is read as a request.
    private static var invalidHeader: Response {
        var response = HTTPError.badRequest(
            "invalid_header",
            "A header line is malformed: a space before its colon, a line folded onto the one before, or a name that is not a token."
        ).response
        response.headers["Connection"] = "close"
        return response
    }

    /// Suspends the connection and runs the handler on the cooperative pool, never on an MHD
    /// thread; the response comes back through `RequestContext.deliver`.
    ///
    /// At high priority: the pool runs jobs of one priority first come, first served, so a
    /// handler started at the default priority waited behind all the background work queued
    /// before it (renditions, sweeps, and in the tests every other test's body: 10 s behind a
    /// flood of 50 ms jobs on two cores, long enough for clients to give up). A client waiting
    /// is the work that cannot wait.
    func runHandler(_ handler: @escaping Router.Handler, for request: Request, on connection: Connection, _ context: RequestContext)
        -> MHD_Result
    {
        guard suspend(connection, for: context) else {
            return answer(Self.shuttingDown, on: connection, context)
        }
        let task = Task(priority: .high) { [self] in
            context.deliver(await responder.respond(to: request, with: handler))
        }
        context.lifecycle.withLock { $0.handling(in: task) }
        return .YES
    }

    /// Queues a response; a request can be answered this way right after its headers or after its body.
    func answer(_ response: Response, on connection: Connection, _ context: RequestContext) -> MHD_Result {
        var response = response
        // A body made from now on would be cut off by the stop: better to tell the client to come back.
        if case .stream = response.body, isStopping { response = Self.shuttingDown }
        let builder = context.lifecycle.withLock { ResponseBuilder(method: $0.method, requestHeaders: $0.requestHeaders) }
        guard let built = builder.build(response) else { return .NO }
        context.lifecycle.withLock { $0.answered(status: built.status, bodyBytes: built.bodyBytes) }
        // Before queueing: the reader runs only once MHD sends the body, and a response MHD
        // refuses is freed at once, which closes its pipe and so ends its producer.
        if let pipe = built.stream { stream(pipe, on: connection, for: context) }
        return connection.queue(built) ? .YES : .NO
    }
}
