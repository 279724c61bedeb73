internal import Dispatch
internal import Synchronization

/// An HTTP server on libmicrohttpd: MHD's epoll threads read and write, route handlers run as
/// tasks while their connection is suspended, and request bodies stream to files.
public final class Server: Sendable {
    private let configuration: Configuration
    private let router: Router
    private let state = Mutex(State.idle)

    private enum State {
        case idle
        case running(Daemon)
        case stopping(Daemon, Task<Void, Never>)
        case stopped
    }

    public init(configuration: Configuration, router: Router) {
        self.configuration = configuration
        self.router = router
    }

    /// Binds `configuration.host` and `configuration.port` and starts serving.
    public func start() throws(HTTPError) {
        try state.withLock { state throws(HTTPError) in
            guard case .idle = state else {
                throw HTTPError(500, "already_started", "A server starts once; make a new one.")
            }
            state = .running(try Daemon(core: ServerCore(configuration: configuration, router: router)))
        }
    }

    /// The port the server listens on (the one picked when `configuration.port` is 0).
    public var port: Int {
        state.withLock { state in
            switch state {
            case .running(let daemon), .stopping(let daemon, _): daemon.port
            case .idle, .stopped: configuration.port
            }
        }
    }

    /// Stops gracefully: no new connections, requests in flight get up to `configuration.stopGrace`
    /// to finish, then handlers still running are answered 503 and the rest is closed. Returns
    /// once the port is free. Calling it again, or concurrently, waits for the same stop.
    public func stop() async {
        let stopping: Task<Void, Never>? = state.withLock { state in
            switch state {
            case .idle, .stopped:
                state = .stopped
                return nil
            case .stopping(_, let task):
                return task
            case .running(let daemon):
                let task = Task { await Self.drain(daemon, grace: configuration.stopGrace) }
                state = .stopping(daemon, task)
                return task
            }
        }
        await stopping?.value
        state.withLock { $0 = .stopped }
    }

    private static func drain(_ daemon: Daemon, grace: Duration) async {
        let core = daemon.core
        core.beginStopping()
        daemon.quiesce()
        await waitForRequests(core, until: .now + grace)
        if core.requestsInFlight > 0 {
            core.abandonHandlers()
            // A moment for the 503s of abandoned handlers to go out before connections close.
            await waitForRequests(core, until: .now + .milliseconds(500))
        }
        // MHD_stop_daemon joins MHD's threads: blocking work, kept off the cooperative pool, and on
        // a queue of its own, which gets a thread at once even when the global queues' are busy.
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "HTTPServer.stop").async {
                daemon.stop()
                continuation.resume()
            }
        }
    }

    private static func waitForRequests(_ core: ServerCore, until deadline: ContinuousClock.Instant) async {
        while core.requestsInFlight > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
