import HTTPServer
import TestSupport
import Testing

/// A connection has `headTimeout` to finish its TLS handshake and send its request head; once a
/// head is in, the connection keeps `connectionTimeout`, between requests too.
@Suite struct HeadTimeoutTests {
    static let headTimeout = Duration.seconds(2)

    func start(tls certificate: TestCertificate? = nil) throws -> LiveServer {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        return try LiveServer(router: router, tls: certificate) { configuration in
            configuration.headTimeout = Self.headTimeout
        }
    }

    /// How long the server keeps a connection that sent `bytes` and then nothing.
    func lifetime(on live: LiveServer, after bytes: String) async throws -> Duration {
        try await RawConnection.lifetime(port: live.port, sending: Array(bytes.utf8))
    }

    @Test(arguments: ["", "GET /hello HTTP/1.1\r\nHost: x\r\n"])
    func aConnectionThatSendsNoWholeHeadIsClosedWithinSeconds(bytes: String) async throws {
        let live = try start()
        let lifetime = try await lifetime(on: live, after: bytes)
        #expect(lifetime >= Self.headTimeout - .milliseconds(100))
        #expect(lifetime < Self.headTimeout * 5)
        await live.stop()
    }

    @Test func aTLSHandshakeThatNeverStartsIsClosedWithinSeconds() async throws {
        let live = try start(tls: try await TestCertificate.make())
        let lifetime = try await lifetime(on: live, after: "")
        #expect(lifetime >= Self.headTimeout - .milliseconds(100))
        #expect(lifetime < Self.headTimeout * 5)
        await live.stop()
    }

    @Test func aKeptAliveConnectionKeepsTheIdleTimeoutBetweenRequests() async throws {
        let live = try start()
        let connection = try await RawConnection.open(port: live.port, sending: Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(await connection.readReply()?.text == "hello")
        try await Task.sleep(for: Self.headTimeout * 2)
        await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await connection.readReply()?.text == "hello")
        await live.stop()
    }
}
