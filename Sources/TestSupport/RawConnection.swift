import Dispatch
import Glibc
import HTTPServer
import Synchronization

/// A TCP connection to the server under test that writes exactly the bytes it is given and
/// reads exactly what comes back, for behaviour that is about bytes on the wire. Blocking socket
/// calls run on a serial dispatch queue of their own: such queues get a thread whenever they have
/// work, while the global queues only add threads slowly once their few are blocked, and the
/// cooperative pool must stay free for the server's handlers.
public final class RawConnection: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let operation: String
        public let code: Int32
        public var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    private let socket: Mutex<Int32>
    /// Bytes read past the end of the last reply `readReply` returned.
    private let pending = Mutex<[UInt8]>([])

    private init(socket: Int32) {
        self.socket = Mutex(socket)
    }

    deinit {
        close()
    }

    /// Connects to an IPv4 or IPv6 literal.
    public static func open(port: Int, host: String = "127.0.0.1") async throws -> RawConnection {
        try await offPool { () throws(Failure) -> RawConnection in try connect(port: port, host: host) }
    }

    /// Connects and sends `bytes` in one go, on one thread: for a server with a short timeout,
    /// which a loaded machine could otherwise let expire between the connect and the first byte.
    public static func open(port: Int, sending bytes: [UInt8]) async throws -> RawConnection {
        try await offPool { () throws(Failure) -> RawConnection in
            let connection = try connect(port: port, host: "127.0.0.1")
            try connection.sendNow(bytes)
            return connection
        }
    }

    /// How long the server keeps a connection that sent `bytes` and then nothing: from before the
    /// connect to the server's close (or `timeout`), timed on the thread that waits, so that a
    /// busy cooperative pool resuming the test late does not count.
    public static func lifetime(port: Int, sending bytes: [UInt8], timeout: Duration = .seconds(60)) async throws -> Duration {
        try await offPool { () throws(Failure) -> Duration in
            let opened = ContinuousClock.now
            let connection = try connect(port: port, host: "127.0.0.1")
            defer { connection.close() }
            try connection.sendNow(bytes)
            let descriptor = connection.socket.withLock { $0 }
            setReceiveTimeout(descriptor, timeout)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while let count = receive(descriptor, into: &buffer), count > 0 {}
            return ContinuousClock.now - opened
        }
    }

    /// Whether something accepts connections on the loopback port: a connect there succeeds (it is
    /// closed at once). A local connect is answered at once, so this does not block.
    public static func isAccepting(port: Int) -> Bool {
        (try? connect(port: port, host: "127.0.0.1")) != nil
    }

    private static func connect(port: Int, host: String) throws(Failure) -> RawConnection {
        guard let address = SocketAddress(host: host, port: port) else { throw Failure(operation: "address", code: EINVAL) }
        let descriptor = Glibc.socket(
            address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(operation: "socket", code: errno) }
        let connected = address.withSockaddr { Glibc.connect(descriptor, $0.assumingMemoryBound(to: sockaddr.self), address.length) }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Failure(operation: "connect", code: code)
        }
        return RawConnection(socket: descriptor)
    }

    /// Writes all of `bytes`; false once the server has closed or reset the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) async -> Bool {
        await Self.offPool { (try? self.sendNow(bytes)) != nil }
    }

    /// Writes all of `bytes`, blocking.
    private func sendNow(_ bytes: [UInt8]) throws(Failure) {
        let descriptor = socket.withLock { $0 }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Failure(operation: "send", code: errno) }
            offset += sent
        }
    }

    @discardableResult
    public func send(_ text: String) async -> Bool {
        await send(Array(text.utf8))
    }

    /// Everything the server sends until it closes the connection (a reset counts as a close),
    /// or until `timeout` passes with nothing new. The timeout is only a backstop for a server
    /// that never closes: a loaded machine can take many seconds to answer, and a working server
    /// closes long before it.
    public func readToEnd(timeout: Duration = .seconds(60)) async -> [UInt8] {
        let descriptor = socket.withLock { $0 }
        let start = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        return await Self.offPool {
            Self.setReceiveTimeout(descriptor, timeout)
            var received = start
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while let count = Self.receive(descriptor, into: &buffer), count > 0 {
                received += buffer[..<count]
            }
            return received
        }
    }

    /// The next reply on a connection kept alive, framed by its `Content-Length`; nil if the
    /// connection ends (or `timeout` passes with nothing new) before a whole reply arrived.
    public func readReply(timeout: Duration = .seconds(60)) async -> HTTPReply? {
        let descriptor = socket.withLock { $0 }
        let start = pending.withLock { $0 }
        let (reply, rest) = await Self.offPool { () -> (HTTPReply?, [UInt8]) in
            Self.setReceiveTimeout(descriptor, timeout)
            var received = start
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                if let length = HTTPReply.wholeLength(received) {
                    return (HTTPReply(Array(received[..<length])), Array(received[length...]))
                }
                guard let count = Self.receive(descriptor, into: &buffer), count > 0 else { return (nil, received) }
                received += buffer[..<count]
            }
        }
        pending.withLock { $0 = rest }
        return reply
    }

    private static func setReceiveTimeout(_ descriptor: Int32, _ timeout: Duration) {
        var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One `recv`, retried when a signal interrupts it; nil on an error or a timeout.
    private static func receive(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int? {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            return count < 0 ? nil : count
        }
    }

    public func close() {
        socket.withLock { descriptor in
            if descriptor >= 0 { Glibc.close(descriptor) }
            descriptor = -1
        }
    }

    private static func offPool<Result: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Result)
        async throws(Failure)
        -> Result
    {
        let outcome: Swift.Result<Result, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "RawConnection").async {
                continuation.resume(returning: Swift.Result { () throws(Failure) -> Result in try work() })
            }
        }
        return try outcome.get()
    }
}
