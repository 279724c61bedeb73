internal import Glibc
internal import Synchronization

/// Everything the server knows about one request, from its request line to the end of its
/// response. libmicrohttpd's threads, the handler's task and `Server.stop()` all reach it, so its
/// changing part, the request's `RequestLifecycle`, lives behind a lock.
final class RequestContext: Sendable {
    /// The request target exactly as sent, before libmicrohttpd decodes it in place.
    let rawURI: [UInt8]
    /// Where libmicrohttpd keeps that target, to see whether a raw NUL cut it short.
    let rawURIAddress: UInt
    let started = ContinuousClock.now
    let lifecycle = Mutex(RequestLifecycle<Connection>())

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
        lifecycle.withLock { lifecycle in lifecycle.deliver(response)?.resume() }
    }

    var elapsed: Duration { ContinuousClock.now - started }

    /// Whether libmicrohttpd is done with the request (its answer is out, or the connection gone).
    var isFinished: Bool { lifecycle.withLock { $0.isFinished } }
}
