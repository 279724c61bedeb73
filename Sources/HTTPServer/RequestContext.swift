internal import Glibc
internal import Synchronization

/// Everything the server knows about one request, from its request line to the end of its
/// response. libmicrohttpd's threads, the handler's task and `Server.stop()` all reach it,
/// so its changing part lives behind a lock.
final class RequestContext: Sendable {
    enum Phase {
        /// The request line is in; the access handler has not run yet.
        case new
        /// Routed, without a body: the handler runs on libmicrohttpd's next call, after which
        /// answering keeps the connection open (an answer in the first call closes it). The
        /// route's fast handler, if it has one, gets the first try, right in that call.
        case accepted(Router.Route)
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

    struct State {
        var phase = Phase.new
        var method = "-"
        var requestHeaders = Headers()
        var request: Request?
        var body: BodyFile?
        /// Set while suspended for a handler, so the handler's task can resume it.
        var suspended: Connection?
        /// Whether the connection was ever suspended for a handler, or its body streams (the
        /// server then keeps the context on its books until the request completes).
        var wasSuspended = false
        var task: Task<Void, Never>?
        /// The streamed body being sent, whose producer a stop ends.
        var stream: StreamPipe?
        /// What we answered, for the access log; nil when the client never got an answer from us.
        var status: Int?
        var bodyBytes: Int?
    }

    /// The request target exactly as sent, before libmicrohttpd decodes it in place.
    let rawURI: [UInt8]
    /// Where libmicrohttpd keeps that target, to see whether a raw NUL cut it short.
    let rawURIAddress: UInt
    let started = ContinuousClock.now
    let state = Mutex(State())

    init(rawURI: UnsafePointer<CChar>?) {
        guard let rawURI else {
            self.rawURI = []
            self.rawURIAddress = 0
            return
        }
        self.rawURI = Array(UnsafeRawBufferPointer(start: rawURI, count: strlen(rawURI)))
        self.rawURIAddress = UInt(bitPattern: rawURI)
    }

    /// Whether the request line held bytes after a NUL that C strings hide from us.
    ///
    /// libmicrohttpd passes the URI to the access handler at the address it passed to the URI
    /// log callback, and the HTTP version sits right after the space that ends the URI on the
    /// same line. A longer gap than the URI we read means a NUL byte ended our copy early.
    func hidesNUL(url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?) -> Bool {
        guard let url, let version, UInt(bitPattern: url) == rawURIAddress else { return false }
        let gap = url.distance(to: version) - 1
        return gap > rawURI.count && gap < 1 << 20
    }

    /// Hands the handler's response over and wakes the connection, unless the request was
    /// already answered (a stop that ran out of patience) or is gone.
    func deliver(_ response: Response) {
        state.withLock { state in
            guard case .handling = state.phase, let connection = state.suspended else { return }
            state.phase = .ready(response)
            state.suspended = nil
            connection.resume()
        }
    }

    var elapsed: Duration { ContinuousClock.now - started }

    /// Whether libmicrohttpd is done with the request (its answer is out, or the connection gone).
    var isFinished: Bool {
        state.withLock { state in
            if case .finished = state.phase { return true }
            return false
        }
    }
}
