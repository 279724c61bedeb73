/// One request's way from its head to its completion, as a value. libmicrohttpd's calls, the
/// handler's answer, a stop and the completion are events; each changes the phase and says what
/// the server is to do, which the server then does outside this value (and outside its lock).
/// Every change of phase is here, so the order the server may take is read in one place and
/// tested without a socket (`RequestLifecycleTests`).
///
/// `Suspended` is what the server resumes once the handler has answered: libmicrohttpd's
/// connection in the server, a stand-in in the tests.
struct RequestLifecycle<Suspended: Sendable>: Sendable {
    enum Phase: Sendable {
        /// The request line is in; the access handler has not run yet.
        case new
        /// Routed, without a body: the handler runs on libmicrohttpd's next call, after which
        /// answering keeps the connection open (an answer in the first call closes it). The
        /// route's fast handler, if it has one, gets the first try, right in that call.
        case accepted(Router.Route, Request)
        /// Streaming the body of a `.file` route to disk; `length` is its Content-Length (nil when chunked).
        case receiving(Router.Route, maxBytes: Int, length: Int?)
        /// The connection is suspended while the handler runs.
        case handling
        /// An answer to queue on the next call: the handler's, once the connection was resumed,
        /// or a refusal of a request without a body.
        case ready(Response)
        /// A response is queued (or was written straight to the socket).
        case answered
        /// libmicrohttpd is done with the request; the connection may be gone.
        case finished
    }

    /// What one of libmicrohttpd's access calls is to do, by the phase it finds.
    enum Call {
        /// The first call: route the head and apply the route's body policy.
        case start
        /// Try the route's fast handler, else run its handler.
        case handle(Router.Route, Request)
        /// Store a piece of the body, if the call brings one; else the body is complete.
        /// `length` is its Content-Length (nil when chunked).
        case receive(Router.Route, length: Int?)
        case answer(Response)
        /// Nothing: a suspended connection is not served, and a queued response ends the calls.
        case none
    }

    /// What a piece of body did.
    enum Received {
        /// Stored; `total` bytes so far.
        case stored(total: Int)
        /// Refused: the body file is gone and the request answered with this, which the server
        /// sends straight to the socket before it drops the connection; `disk` when the disk
        /// refused the piece.
        case refused(HTTPError, disk: BodyFile.Failure?)
    }

    /// What the server is to do once libmicrohttpd is done with the request.
    struct Completion {
        let method: String
        let status: Int?
        let bodyBytes: Int?
        /// The server kept the request on its books (it was suspended or streams its body).
        let wasKept: Bool
        /// A body cut short whose route keeps part of one: run its salvage, then discard the file.
        let salvage: (Router.Salvage, Request, BodyFile)?
    }

    private(set) var phase = Phase.new
    private(set) var method = "-"
    private(set) var requestHeaders = Headers()
    private var request: Request?
    private var body: BodyFile?
    private var suspended: Suspended?
    private var wasKept = false
    private var task: Task<Void, Never>?
    private var stream: StreamPipe?
    private var status: Int?
    private var bodyBytes: Int?

    /// The access handler is called.
    func called() -> Call {
        switch phase {
        case .new: .start
        case .accepted(let route, let request): .handle(route, request)
        case .receiving(let route, _, let length): .receive(route, length: length)
        case .ready(let response): .answer(response)
        case .handling, .answered, .finished: .none
        }
    }

    /// The head is in.
    mutating func headed(method: String, headers: Headers) {
        self.method = method
        requestHeaders = headers
    }

    /// A request without a body is routed: its handler runs on the next call.
    mutating func accept(_ route: Router.Route, _ request: Request) {
        phase = .accepted(route, request)
    }

    /// A refusal to answer once the request is over (it has no body to wait for).
    mutating func refuseLater(_ response: Response) {
        phase = .ready(response)
    }

    /// The body of `request` streams into `body`.
    mutating func receive(_ request: Request, into body: BodyFile, route: Router.Route, maxBytes: Int, length: Int?) {
        self.request = request
        self.body = body
        phase = .receiving(route, maxBytes: maxBytes, length: length)
    }

    /// A piece of body, `elapsed` after the request line: onto disk, unless it makes the body
    /// too large (chunked bodies announce no length, so the limit holds as they arrive), the
    /// disk refuses it, or it shows the client slower than `configuration` allows.
    mutating func append(_ data: UnsafeRawBufferPointer, elapsed: Duration, configuration: Configuration) -> Received {
        guard case .receiving(_, let maxBytes, _) = phase, let size = body?.size else {
            return refuse(HTTPError(500, "internal", "Something went wrong on the server."))
        }
        guard size + data.count <= maxBytes else { return refuse(Responder.tooLarge(maxBytes)) }
        do throws(BodyFile.Failure) {
            try body?.append(data)
        } catch {
            return refuse(error.answer, disk: error)
        }
        let total = size + data.count
        if elapsed > configuration.minimumBodyRateGrace, .seconds(total) < elapsed * configuration.minimumBodyRate {
            return refuse(HTTPError(408, "too_slow", "The request body arrived too slowly."))
        }
        return .stored(total: total)
    }

    /// Ends the body with `failure`: its file goes, and the request is answered.
    private mutating func refuse(_ failure: HTTPError, disk: BodyFile.Failure? = nil) -> Received {
        body?.discard()
        body = nil
        answered(status: failure.status, bodyBytes: failure.jsonBody.count)
        return .refused(failure, disk: disk)
    }

    /// The whole body is on disk: the request the handler is given, with it as its body.
    mutating func bodyComplete() -> Request? {
        guard var request, var body else { return nil }
        body.close()
        self.body = body
        request.body = body.received
        return request
    }

    /// The connection is suspended while the handler runs.
    mutating func suspend(_ connection: Suspended) {
        phase = .handling
        suspended = connection
        wasKept = true
    }

    mutating func handling(in task: Task<Void, Never>) {
        self.task = task
    }

    /// The handler's answer (or a stop's): the connection to resume so that the next call queues
    /// it, or nil when the request was answered already or is gone.
    mutating func deliver(_ response: Response) -> Suspended? {
        guard case .handling = phase, let connection = suspended else { return nil }
        phase = .ready(response)
        suspended = nil
        return connection
    }

    /// A response was queued, or written straight to the socket.
    mutating func answered(status: Int, bodyBytes: Int?) {
        phase = .answered
        self.status = status
        self.bodyBytes = bodyBytes
    }

    /// The response's body streams from `pipe`.
    mutating func streaming(_ pipe: StreamPipe) {
        stream = pipe
        wasKept = true
    }

    /// The handler to cancel because its client hung up (`hasGoneAway` looks at the connection
    /// while it is still suspended), if one runs.
    func handlerOfClientGone(_ hasGoneAway: (Suspended) -> Bool) -> Task<Void, Never>? {
        guard case .handling = phase, let suspended, hasGoneAway(suspended) else { return nil }
        return task
    }

    /// What a stop ends: the handler's task and the streamed body.
    var running: (task: Task<Void, Never>?, stream: StreamPipe?) { (task, stream) }

    var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// libmicrohttpd is done with the request: the response went out, or the connection died. A
    /// body cut short goes to its route's salvage unless the server is stopping; any other body
    /// file left is discarded here.
    mutating func complete(stopping: Bool) -> Completion {
        if let stream { bodyBytes = stream.sent }
        var salvage: (Router.Salvage, Request, BodyFile)?
        if case .receiving(let route, _, _) = phase, let routeSalvage = route.salvage, let request, var body, body.size > 0, !stopping {
            body.close()
            var cut = request
            cut.body = body.received
            salvage = (routeSalvage, cut, body)
        } else {
            body?.discard()
        }
        body = nil
        suspended = nil
        phase = .finished
        return Completion(method: method, status: status, bodyBytes: bodyBytes, wasKept: wasKept, salvage: salvage)
    }
}

extension BodyFile.Failure {
    /// A full disk is the client's to retry later (507); anything else is ours to look into.
    var answer: HTTPError {
        isNoSpace
            ? HTTPError(507, "no_space", "The server has no room for this upload right now.")
            : HTTPError(500, "internal", "Something went wrong on the server.")
    }
}
