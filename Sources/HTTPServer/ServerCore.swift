internal import Synchronization

/// What every libmicrohttpd callback of one daemon reaches through its `cls` pointer: the
/// configuration, the routes, and the requests in flight (which a graceful stop waits for).
final class ServerCore: Sendable {
    let configuration: Configuration
    let router: Router
    private let registry = Mutex(Registry())

    private struct Registry {
        var requests: [ObjectIdentifier: RequestContext] = [:]
        var stopping = false
    }

    init(configuration: Configuration, router: Router) {
        self.configuration = configuration
        self.router = router
    }

    /// The URI log callback: a request line arrived. The returned context travels as MHD's
    /// per-request pointer (retained) until `complete`.
    func begin(rawURI: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer {
        let context = RequestContext(rawURI: rawURI)
        registry.withLock { $0.requests[ObjectIdentifier(context)] = context }
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// The completion callback: the response went out, or the connection died (timeout, client
    /// gone, daemon stopping). Whatever body file is left goes, and the request leaves the books
    /// with one access-log line.
    func complete(_ connection: Connection, _ pointer: UnsafeMutableRawPointer) {
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
        let (method, status, bodyBytes) = context.state.withLock { state in
            state.body?.discard()
            state.body = nil
            state.suspended = nil
            state.phase = .finished
            // A request libmicrohttpd refused itself (no Host, say) has only MHD's status.
            return (state.method, state.status ?? connection.queuedStatus, state.bodyBytes)
        }
        registry.withLock { _ = $0.requests.removeValue(forKey: ObjectIdentifier(context)) }
        // The path as sent, without the query: query values may be private (tokens, places).
        let path = RawURI.loggable(context.rawURI.prefix { $0 != UInt8(ascii: "?") })
        let milliseconds = context.elapsed / .milliseconds(1)
        configuration.log("\(method) \(path) \(status.map(String.init) ?? "-") \(bodyBytes.map(String.init) ?? "-") \(Int(milliseconds))ms")
    }

    var isStopping: Bool { registry.withLock { $0.stopping } }

    var requestsInFlight: Int { registry.withLock { $0.requests.count } }

    /// From now on, requests on connections still open are refused with 503 and their
    /// connection is closed, so open connections wind down instead of bringing new work.
    func beginStopping() {
        registry.withLock { $0.stopping = true }
    }

    /// Suspends the connection for a handler, unless a stop has begun. Deciding under the
    /// registry's lock means `abandonHandlers` (which runs after `beginStopping`) sees every
    /// connection that was suspended, so none is left suspended when the daemon stops.
    func suspend(_ connection: Connection, for context: RequestContext) -> Bool {
        registry.withLock { registry in
            guard !registry.stopping else { return false }
            connection.suspend()
            context.state.withLock { state in
                state.phase = .handling
                state.suspended = connection
            }
            return true
        }
    }

    /// Answers every request whose handler is still running with 503 and cancels the handler,
    /// so each suspended connection is resumed before the daemon stops (libmicrohttpd aborts
    /// the process if it is stopped with a connection still suspended).
    func abandonHandlers() {
        let contexts = registry.withLock { Array($0.requests.values) }
        for context in contexts {
            context.deliver(Self.shuttingDown)
            context.state.withLock { $0.task }?.cancel()
        }
    }

    static var shuttingDown: Response {
        var response = HTTPError(503, "shutting_down", "The server is stopping; try again shortly.").response
        response.headers["Connection"] = "close"
        return response
    }
}
