import HTTPServer
import TestSupport
import Testing

/// Requests that must be refused before any handler runs, sent as raw bytes.
@Suite struct RequestValidationTests {
    /// How often a handler ran.
    let handled = Counter()

    func start() throws -> LiveServer {
        var router = Router()
        let count: Router.Handler = { _ in
            handled.increment()
            return .text("handled")
        }
        router.get("/a/b", count)
        router.get("/etc/passwd", count)
        router.get("/hello", count)
        router.post("/upload", body: .file(maxBytes: 1000), count)
        return try LiveServer(router: router)
    }

    @Test(arguments: [
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nhello",
        "GET /hello%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /hello?name=a%00b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /hello\u{0}/../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /a/../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /%2E./etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /a/./b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /a\\b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /a%5Cb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ])
    func refusesWithAJSON400(request: String) async throws {
        let live = try start()
        let reply = try await live.exchange(request)
        #expect(reply.status == 400)
        #expect(reply.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(reply.text.hasPrefix(#"{"code":"invalid_"#))
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        #expect(handled.value == 0)
        #expect(live.bodyFiles.isEmpty)
        await live.stop()
    }

    /// libmicrohttpd's strict mode answers these itself, before our handler sees them.
    @Test func libmicrohttpdRefusesAMissingHostAndSpacesInTheTarget() async throws {
        let live = try start()
        let noHost = try await live.exchange("GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(noHost.status == 400)
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await connection.readToEnd().isEmpty)
        #expect(handled.value == 0)
        await live.stop()
    }

    /// A connection's memory holds a request with 8 KB of headers (a large cookie, say), on a
    /// kept-alive connection too; one of 100 KB is refused without reaching a handler.
    @Test func headersOfEightKilobytesAreTakenAndOfAHundredRefused() async throws {
        let live = try start()
        let cookie = "Cookie: " + String(repeating: "c", count: 8 * 1024) + "\r\n"
        let connection = try await RawConnection.open(port: live.port)
        for _ in 0..<2 {
            await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(cookie)\r\n")
            #expect(try #require(await connection.readReply()).status == 200)
        }
        #expect(handled.value == 2)
        let huge = try await live.exchange(
            "GET /hello HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: 100_000))\r\nConnection: close\r\n\r\n")
        #expect([413, 431].contains(huge.status))
        #expect(handled.value == 2)
        await live.stop()
    }
}
