import Foundation
import HTTPServer
import Synchronization
import TestSupport

/// A real server on a free loopback port, with its own body folder and a log the test can read.
final class LiveServer: Sendable {
    let server: Server
    let bodyFolder: TemporaryDirectory
    let log = LogLines()
    /// When set, the server speaks HTTPS with this certificate and `exchange` goes through TLS.
    let certificate: TestCertificate?

    /// The limits that cut slow clients are off unless a test turns them on: on a loaded machine
    /// a test's own writes can be seconds apart, and only the mechanism under test may fire.
    init(router: Router, tls certificate: TestCertificate? = nil, configure: (inout Configuration) -> Void = { _ in }) throws {
        bodyFolder = TemporaryDirectory("http-bodies")
        self.certificate = certificate
        var configuration = Configuration(bodyDirectory: bodyFolder.path)
        configuration.port = 0
        configuration.tls = certificate?.identity
        configuration.log = { [log] line in log.append(line) }
        configuration.minimumBodyRate = 0
        configuration.connectionTimeout = .seconds(600)
        configuration.headTimeout = .seconds(600)
        configure(&configuration)
        server = Server(configuration: configuration, router: router)
        try server.start()
    }

    var port: Int { server.port }

    /// Sends `request` as it is on a new connection and reads until the server closes it.
    func exchange(_ request: String) async throws -> HTTPReply {
        try await exchange(Array(request.utf8))
    }

    func exchange(_ request: [UInt8]) async throws -> HTTPReply {
        let bytes: [UInt8]
        if let certificate {
            bytes = try await certificate.exchange(request, port: port)
        } else {
            let connection = try await RawConnection.open(port: port)
            await connection.send(request)
            bytes = await connection.readToEnd()
        }
        guard let reply = HTTPReply(bytes) else { throw NoReply(bytes: bytes) }
        return reply
    }

    /// A request with the headers every HTTP/1.1 client sends, closing the connection after it.
    func request(_ method: String, _ target: String, headers: [String] = [], body: [UInt8] = []) async throws -> HTTPReply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        return try await exchange(Array((head + "\r\n").utf8) + body)
    }

    func get(_ target: String, headers: [String] = []) async throws -> HTTPReply {
        try await request("GET", target, headers: headers)
    }

    /// The request bodies still on disk.
    var bodyFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: bodyFolder.path)) ?? []).filter { $0.hasSuffix(".upload") }
    }

    func stop() async {
        await server.stop()
    }
}

struct NoReply: Error, CustomStringConvertible {
    let bytes: [UInt8]
    var description: String { "no HTTP response in \(bytes.count) bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))" }
}

/// Lines the server logged, in order.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}

/// How many times something happened, across tasks.
final class Counter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}

/// Waits, polling, until `condition` holds or `timeout` passes; whether it came to hold. The
/// timeout is generous because a loaded machine can be slow; a condition that holds ends the
/// wait at once.
func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// A one-way signal between a test and its handlers: `wait()` returns once `open()` has been
/// called, before or after. Orders events where a sleep would only make them likely.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
