internal import CMicroHTTPD
internal import CMicroHTTPDShims
internal import Dispatch
internal import Glibc
internal import Synchronization

/// One running libmicrohttpd daemon. It owns the `MHD_Daemon` and the reference to the core
/// its callbacks use, and gives both up in `stop()` (or when released without one).
///
/// Sendable by hand: the daemon calls used here (quiesce, stop, get_info) may come from any thread,
/// and the listen socket and the stopped flag are behind a lock.
final class Daemon: @unchecked Sendable {
    let core: ServerCore
    let port: Int
    private let handle: OpaquePointer
    private let coreReference: Unmanaged<ServerCore>
    /// Read by MHD while it runs; released after `MHD_stop_daemon`, with the daemon object.
    private let tls: TLSText?
    private let lifecycle = Mutex(Lifecycle())
    /// Looks for clients gone while their handler runs, four times a second, on a thread of its
    /// own: a task could wait behind a pool's worth of other work.
    private let hangUps: any DispatchSourceTimer

    private struct Lifecycle {
        /// The listen socket, which `MHD_quiesce_daemon` hands to us to close after the stop.
        var quiescedSocket: Int32?
        var stopped = false
    }

    init(core: ServerCore) throws(HTTPError) {
        let configuration = core.configuration
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw HTTPError(
                500, "invalid_address", "\(configuration.host) port \(configuration.port) is not an IP address and port to listen on.")
        }
        if configuration.tls != nil, MHD_is_feature_supported(.FEATURE_TLS) != .YES {
            throw HTTPError(500, "tls_unsupported", "This libmicrohttpd was built without TLS, so it cannot serve HTTPS.")
        }
        let tls = configuration.tls.map(TLSText.init)
        let reference = Unmanaged.passRetained(core)
        guard let handle = DaemonOptions.start(configuration, address: address, tls: tls, core: reference.toOpaque()) else {
            reference.release()
            throw Self.startFailure(address, tls: tls != nil)
        }
        self.core = core
        self.handle = handle
        self.coreReference = reference
        self.tls = tls
        self.port = Int(cr_mhd_daemon_bind_port(handle))
        hangUps = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "cameraroll.hang-ups"))
        hangUps.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        hangUps.setEventHandler { [core] in core.cancelHandlersOfClientsGone() }
        hangUps.resume()
    }

    deinit {
        stop()
    }

    /// Stops accepting connections; those already open are still served.
    func quiesce() {
        lifecycle.withLock { lifecycle in
            guard !lifecycle.stopped, lifecycle.quiescedSocket == nil else { return }
            let socket = MHD_quiesce_daemon(handle)
            guard socket >= 0 else { return }
            // MHD no longer accepts on it, but only closing or shutting it down makes the kernel
            // refuse new clients instead of queueing them; MHD may still touch the descriptor
            // until it stops, so it is only shut down now and closed after MHD_stop_daemon.
            _ = shutdown(socket, Int32(SHUT_RDWR))
            lifecycle.quiescedSocket = socket
        }
    }

    /// Closes every connection and joins MHD's threads. Blocks; idempotent.
    func stop() {
        let (alreadyStopped, socket) = lifecycle.withLock { lifecycle in
            defer { lifecycle.stopped = true }
            return (lifecycle.stopped, lifecycle.quiescedSocket)
        }
        guard !alreadyStopped else { return }
        hangUps.cancel()
        core.beginStopping()
        core.abandonHandlers()
        MHD_stop_daemon(handle)
        if let socket { _ = close(socket) }
        coreReference.release()
    }

    private static func startFailure(_ address: SocketAddress, tls: Bool) -> HTTPError {
        let place = "\(address.host) port \(address.port)"
        switch address.bindFailure() {
        case EADDRINUSE?:
            return HTTPError(500, "address_in_use", "Cannot listen on \(place): it is already in use.")
        case EACCES?:
            return HTTPError(500, "address_forbidden", "Cannot listen on \(place): permission denied.")
        case EADDRNOTAVAIL?:
            return HTTPError(500, "address_unavailable", "Cannot listen on \(place): no network interface has this address.")
        case nil where tls:
            // The address is free, and MHD reads the certificate and key while starting.
            return HTTPError(
                500, "tls_identity_invalid", "Cannot serve HTTPS on \(place): the certificate or private key is not usable (PEM expected).")
        default:
            return HTTPError(500, "start_failed", "Cannot start the HTTP server on \(place).")
        }
    }
}
