internal import Dispatch
internal import Synchronization

/// An HTTP server on libmicrohttpd: MHD's polling threads read and write, route handlers run as
/// tasks while their connection is suspended (or, for answers that are ready, as fast handlers
/// right on MHD's threads), and request bodies stream to files.
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

    /// Requests being answered, with the producers of streamed bodies still running: 0 when no
    /// work is left for any client (the one a client that went away left included).
    public var requestsInFlight: Int {
        state.withLock { state in
            switch state {
            case .running(let daemon), .stopping(let daemon, _): daemon.core.requestsInFlight
            case .idle, .stopped: 0
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
                // Refusing new work starts here, not when the draining task gets a thread: on a
                // busy machine that can be much later.
                daemon.core.beginStopping()
                daemon.quiesce()
                let deadline = ContinuousClock.now + configuration.stopGrace
                let task = Task { await Self.drain(daemon, until: deadline) }
                state = .stopping(daemon, task)
                return task
            }
        }
        await stopping?.value
        state.withLock { $0 = .stopped }
    }

    private static func drain(_ daemon: Daemon, until deadline: ContinuousClock.Instant) async {
        let core = daemon.core
        await waitForRequests(core, until: deadline)
        if core.requestsInFlight > 0 {
            let abandoned = core.abandonHandlers()
            // The 503s of abandoned handlers go out before connections close: MHD's threads send
            // them within milliseconds, unless a busy machine keeps them waiting for a while.
            let sent = ContinuousClock.now + .seconds(5)
            while !abandoned.allSatisfy(\.isFinished), ContinuousClock.now < sent {
                try? await Task.sleep(for: .milliseconds(10))
            }
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
