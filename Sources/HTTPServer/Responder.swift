/// What becomes of a request once its head is in, apart from any socket: its route, the gate
/// and the route's check, the body policy, the handlers, `finish`, and what an error becomes.
/// The server runs it for libmicrohttpd's connections and `InProcessClient` for callers without
/// a socket, so that both answer a request alike.
struct Responder: Sendable {
    let router: Router
    /// Where a handler's unexpected error goes: for the operator, never for the client.
    let log: @Sendable (String) -> Void

    /// What to do with a request whose head is in.
    enum Decision {
        /// Answer with an error: `now` when a body follows, so that it is never read (the server
        /// then closes the connection); otherwise once the request is over.
        case refuse(Response, now: Bool)
        case run(Router.Route, Request)
        /// Store the body, at most `maxBytes` of it, then run the route's handler.
        case receive(Request, Router.Route, maxBytes: Int, length: Int?)
    }

    enum Routing {
        case routed(RoutedTargets.Routed)
        case refused(Response)
    }

    /// The route of a decoded target, or the answer when there is none (404, or 405 with `Allow`).
    func route(method: String, uri: RawURI) -> Routing {
        switch router.match(method: method, path: uri.path) {
        case .notFound:
            return .refused(HTTPError.notFound().response)
        case .methodNotAllowed(let allowed):
            var response = HTTPError(405, "method_not_allowed", "This address does not accept \(method).").response
            response.headers["Allow"] = allowed.joined(separator: ", ")
            return .refused(response)
        case .found(let route, let parameters):
            return .routed(RoutedTargets.Routed(uri: uri, route: route, parameters: parameters))
        }
    }

    /// The request a routed target makes, past the gate, the route's body policy and its check.
    /// `lengths` are the request's Content-Length values (at most one, checked before).
    func admit(
        _ routed: RoutedTargets.Routed, method: String, headers: Headers, client: ForwardedFor.Client, lengths: [String], bodyFollows: Bool
    ) -> Decision {
        let route = routed.route
        let request = Request(
            method: method, path: routed.uri.path, query: routed.uri.query, headers: headers, remoteAddress: client.address,
            throughProxy: client.throughProxy, parameters: routed.parameters)
        if let refusal = router.gate?(request, route) {
            return .refuse(finished(refusal, for: request), now: bodyFollows)
        }
        let accepted: Decision
        switch route.body {
        case .none:
            guard !bodyFollows else {
                return .refuse(HTTPError(413, "body_not_allowed", "This address takes no request body.").response, now: true)
            }
            accepted = .run(route, request)
        case .file(let maxBytes, _):
            // libmicrohttpd has checked that the one Content-Length is all digits; too many for Int is too large anyway.
            let length = lengths.first.map { Int($0) ?? Int.max }
            guard length ?? 0 <= maxBytes else {
                return .refuse(Self.tooLarge(maxBytes).response, now: true)
            }
            accepted = .receive(request, route, maxBytes: maxBytes, length: length)
        }
        if let refusal = route.check?(request) {
            return .refuse(finished(refusal, for: request), now: bodyFollows)
        }
        return accepted
    }

    static func tooLarge(_ maxBytes: Int) -> HTTPError {
        HTTPError(413, "too_large", "The request body is larger than \(maxBytes) bytes.")
    }

    /// The handler's answer, or its error's, through `finish`.
    func respond(to request: Request, with handler: Router.Handler) async -> Response {
        do {
            return finished(try await handler(request), for: request)
        } catch {
            return finished(failure(error, of: request), for: request)
        }
    }

    /// The fast handler's answer; nil when it leaves the request to the handler.
    func respondNow(to request: Request, with fast: Router.FastHandler) -> Response? {
        do {
            return try fast(request).map { finished($0, for: request) }
        } catch {
            return finished(failure(error, of: request), for: request)
        }
    }

    func finished(_ response: Response, for request: Request) -> Response {
        guard let finish = router.finish else { return response }
        var response = response
        finish(request, &response)
        return response
    }

    /// What a handler's error becomes: its own answer, or a 500 with the detail only in the log.
    private func failure(_ error: any Error, of request: Request) -> Response {
        if let error = error as? any HTTPResponseError { return error.response }
        log("\(request.method) \(RawURI.loggable(ArraySlice(request.path.utf8))) failed: \(error)")
        return HTTPError(500, "internal", "Something went wrong on the server.").response
    }
}
