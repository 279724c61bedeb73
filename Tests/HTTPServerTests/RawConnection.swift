import Dispatch
import Glibc
import Synchronization

/// A TCP connection to the server under test that writes exactly the bytes it is given and
/// reads exactly what comes back, for behaviour that is about bytes on the wire. Blocking socket
/// calls run on a serial dispatch queue of their own: such queues get a thread whenever they have
/// work, while the global queues only add threads slowly once their few are blocked, and the
/// cooperative pool must stay free for the server's handlers.
final class RawConnection: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    private let socket: Mutex<Int32>

    private init(socket: Int32) {
        self.socket = Mutex(socket)
    }

    deinit {
        close()
    }

    /// Connects to an IPv4 or IPv6 literal.
    static func open(port: Int, host: String = "127.0.0.1") async throws -> RawConnection {
        try await offPool { () throws(Failure) -> RawConnection in
            var storage = sockaddr_storage()
            let family: Int32
            let length: Int
            var ipv4 = sockaddr_in()
            var ipv6 = sockaddr_in6()
            if inet_pton(AF_INET, host, &ipv4.sin_addr) == 1 {
                ipv4.sin_family = sa_family_t(AF_INET)
                ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
                withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv4, as: sockaddr_in.self) }
                (family, length) = (AF_INET, MemoryLayout<sockaddr_in>.size)
            } else {
                inet_pton(AF_INET6, host, &ipv6.sin6_addr)
                ipv6.sin6_family = sa_family_t(AF_INET6)
                ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
                withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv6, as: sockaddr_in6.self) }
                (family, length) = (AF_INET6, MemoryLayout<sockaddr_in6>.size)
            }
            let descriptor = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(operation: "socket", code: errno) }
            let connected = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(length)) }
            }
            guard connected == 0 else {
                let code = errno
                Glibc.close(descriptor)
                throw Failure(operation: "connect", code: code)
            }
            return RawConnection(socket: descriptor)
        }
    }

    /// Writes all of `bytes`; false once the server has closed or reset the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        let descriptor = socket.withLock { $0 }
        return await Self.offPool {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    @discardableResult
    func send(_ text: String) async -> Bool {
        await send(Array(text.utf8))
    }

    /// Everything the server sends until it closes the connection (a reset counts as a close),
    /// or until `timeout` passes with nothing new.
    func readToEnd(timeout: Duration = .seconds(15)) async -> [UInt8] {
        let descriptor = socket.withLock { $0 }
        return await Self.offPool {
            var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += buffer[..<count]
            }
            return received
        }
    }

    func close() {
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
