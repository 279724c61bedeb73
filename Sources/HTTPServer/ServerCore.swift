internal import Glibc
import IPAddress
internal import Synchronization

/// What every libmicrohttpd callback of one daemon reaches through its `cls` pointer: the
/// configuration, the routes, the requests in flight (which a graceful stop waits for), and the
/// connections open (which decide whether the next one is let in).
///
/// Requests answered on MHD's threads touch only their own context and one atomic counter;
/// the shared lock is taken only for requests whose connection is suspended for a handler.
final class ServerCore: Sendable {
    let configuration: Configuration
    let responder: Responder
    let routedTargets = RoutedTargets()
    /// Requests between their request line and their completion.
    private let inFlight = Atomic(0)
    /// Written only under `suspended`'s lock, so deciding to suspend and stopping cannot cross.
    private let stopping = Atomic(false)
    /// The requests whose connection is suspended while their handler runs, or may be while
    /// their body streams (whenever the client is ahead of the producer).
    private let suspended = Mutex<[ObjectIdentifier: RequestContext]>([:])
    private let admission: Mutex<ConnectionAdmission>
    /// A new connection's timeout until its request head is in, when shorter than the idle one.
    private let headTimeout: UInt32?
    private let idleTimeout: UInt32

    init(configuration: Configuration, router: Router) {
        self.configuration = configuration
        responder = Responder(router: router, log: configuration.log)
        admission = Mutex(
            ConnectionAdmission(
                untrustedLimit: min(configuration.untrustedConnectionLimit, configuration.connectionLimit),
                perNetworkLimit: configuration.perNetworkConnectionLimit))
        idleTimeout = DaemonOptions.wholeSeconds(configuration.connectionTimeout)
        let head = DaemonOptions.wholeSeconds(configuration.headTimeout)
        headTimeout = head < idleTimeout ? head : nil
    }

    /// The accept policy: whether to serve a connection just accepted from `address`.
    func admits(_ address: UnsafePointer<sockaddr>) -> Bool {
        guard let client = IPAddress(socketAddress: address) else { return true }
        let trusted = trusts(client)
        return admission.withLock { $0.admits(client, trusted: trusted) }
    }

    /// libmicrohttpd serves a new connection (on the thread that accepted it): count it, and give
    /// it the head's timeout, which covers its TLS handshake too.
    func opened(_ connection: Connection) {
        if let headTimeout { connection.timeoutSeconds = headTimeout }
        guard let client = connection.address else { return }
        let trusted = trusts(client)
        admission.withLock { $0.opened(connection.identity, from: client, trusted: trusted) }
    }

    func closed(_ connection: Connection) {
        admission.withLock { $0.closed(connection.identity) }
    }

    /// Loopback, the application's vouched-for clients, and the proxies every client comes through.
    private func trusts(_ client: IPAddress) -> Bool {
        configuration.trustedClients.trusts(client) || configuration.forwardedFor.proxies.contains(client)
    }

    /// A request head is in: from now on the connection has the idle timeout, between requests too.
    func headArrived(on connection: Connection) {
        if let headTimeout, connection.timeoutSeconds == headTimeout { connection.timeoutSeconds = idleTimeout }
    }

    /// The URI log callback: a request line arrived. The returned context travels as MHD's
    /// per-request pointer (retained) until `complete`.
    func begin(rawURI: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer {
        inFlight.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(RequestContext(rawURI: rawURI)).toOpaque()
    }

    /// The completion callback: the response went out, or the connection died (timeout, client
    /// gone, daemon stopping). Whatever body file is left goes (a cut body through its route's
    /// salvage first), and the request leaves the books with one access-log line.
    func complete(_ connection: Connection, _ pointer: UnsafeMutableRawPointer) {
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
        let completion = context.lifecycle.withLock { $0.complete(stopping: isStopping) }
        if let (salvage, request, body) = completion.salvage { self.salvage(body, of: request, with: salvage) }
        if completion.wasKept {
            suspended.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
        }
        // A request libmicrohttpd refused itself (no Host, say) has only MHD's status.
        configuration.log(
            AccessLog.line(
                method: completion.method, rawURI: context.rawURI, status: completion.status ?? connection.queuedStatus,
                bodyBytes: completion.bodyBytes, elapsed: context.elapsed))
        // Last, so that a stop waiting for this request finds its line logged.
        inFlight.subtract(1, ordering: .releasing)
    }

    /// Runs a route's salvage on a body cut short, counted as a request in flight so that a stop
    /// waits for it.
    private func salvage(_ body: BodyFile, of request: Request, with salvage: @escaping Router.Salvage) {
        inFlight.add(1, ordering: .relaxed)
        Task {
            var body = body
            await salvage(request)
            body.discard()
            inFlight.subtract(1, ordering: .releasing)
        }
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    /// From now on, requests on connections still open are refused with 503 and their
    /// connection is closed, so open connections wind down instead of bringing new work.
    func beginStopping() {
        suspended.withLock { _ in stopping.store(true, ordering: .releasing) }
    }

    /// Suspends the connection for a handler, unless a stop has begun. Deciding under the
    /// lock that `beginStopping` stores under means `abandonHandlers` (which runs after it) sees
    /// every connection that was suspended, so none is left suspended when the daemon stops.
    func suspend(_ connection: Connection, for context: RequestContext) -> Bool {
        suspended.withLock { suspended in
            guard !stopping.load(ordering: .relaxed) else { return false }
            connection.suspend()
            context.lifecycle.withLock { $0.suspend(connection) }
            suspended[ObjectIdentifier(context)] = context
            return true
        }
    }

    /// Starts the producer of a streamed body whose response is about to be queued, unless a stop
    /// has begun (the body then ends at once, and its connection with it). As in `suspend`,
    /// deciding under the lock that `beginStopping` stores under means `abandonHandlers` ends
    /// every stream that could still suspend its connection. The producer counts as a request in
    /// flight until it returns, so a stop waits for it and a client gone leaves nothing behind.
    func stream(_ pipe: StreamPipe, on connection: Connection, for context: RequestContext) {
        let admitted = suspended.withLock { suspended in
            guard !stopping.load(ordering: .relaxed) else { return false }
            context.lifecycle.withLock { $0.streaming(pipe) }
            suspended[ObjectIdentifier(context)] = context
            return true
        }
        guard admitted else { return pipe.close() }
        inFlight.add(1, ordering: .relaxed)
        let path = context.rawURI
        pipe.start(
            on: connection,
            report: { [configuration] failure in configuration.log("\(RawURI.loggable(path[...])) was cut short: \(failure)") },
            done: { [self] in inFlight.subtract(1, ordering: .releasing) })
    }

    /// Answers every request whose handler is still running with 503 and cancels the handler, and
    /// ends every streamed body, so each suspended connection is resumed before the daemon stops
    /// (libmicrohttpd aborts the process if it is stopped with a connection still suspended).
    /// Returns those requests.
    @discardableResult
    func abandonHandlers() -> [RequestContext] {
        let contexts = suspended.withLock { Array($0.values) }
        for context in contexts {
            context.deliver(Self.shuttingDown)
            let (task, stream) = context.lifecycle.withLock { $0.running }
            task?.cancel()
            stream?.close()
        }
        return contexts
    }

    /// Cancels the handlers whose client has hung up. libmicrohttpd does not look at a suspended
    /// connection, so without this a handler would run to its end for nobody (an ffmpeg run for
    /// a segment the player no longer wants after a seek), holding what others wait for. Each
    /// connection is looked at under its context's lock, while it is still suspended, so it
    /// cannot be resumed and freed meanwhile.
    func cancelHandlersOfClientsGone() {
        let contexts = suspended.withLock { Array($0.values) }
        for context in contexts {
            context.lifecycle.withLock { $0.handlerOfClientGone { $0.peerHasClosed } }?.cancel()
        }
    }

    static var shuttingDown: Response {
        var response = HTTPError(503, "shutting_down", "The server is stopping; try again shortly.").response
        response.headers["Connection"] = "close"
        return response
    }
}
