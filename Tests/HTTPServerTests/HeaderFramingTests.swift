import HTTPServer
import TestSupport
import Testing

/// Header lines that two parsers could frame differently (RFC 9112 5.1, 5.2): whitespace between
/// a field name and its colon, and a line folded onto the one before. Each is refused with a 400
/// and the connection closed, so what follows the head is never read as another request.
@Suite struct HeaderFramingTests {
    /// A request that counts itself when it gets through, and closes the connection after its answer.
    static let smuggled = "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    static let cases: [String] = [
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length : \(smuggled.utf8.count)\r\n\r\n\(smuggled)",
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length\t: \(smuggled.utf8.count)\r\n\r\n\(smuggled)",
        "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n\(smuggled)",
        "POST /upload HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n\tContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)",
        "GET /hello HTTP/1.1\r\nHost: x\r\nX-Note: one\r\n two\r\nConnection: close\r\n\r\n",
        "GET /hello HTTP/1.1\r\n Host: x\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: x\r\nX(Note): a\r\nConnection: close\r\n\r\n",
    ]

    @Test(arguments: cases)
    func isRefusedAndNothingAfterItIsServed(request: String) async throws {
        let handled = Counter()
        var router = Router()
        let count: Router.Handler = { _ in
            handled.increment()
            return .text("handled")
        }
        router.get("/hello", count)
        router.post("/upload", body: .file(maxBytes: 1000), count)
        let live = try LiveServer(router: router)

        let connection = try await RawConnection.open(port: live.port)
        await connection.send(request)
        let bytes = await connection.readToEnd()
        let reply = try #require(HTTPReply(bytes))
        #expect(reply.status == 400)
        #expect(reply.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(reply.text.hasPrefix(#"{"code":"invalid_header""#))
        #expect(reply.headers["Connection"] == "close")
        // One answer, and the server closed the connection after it (readToEnd returned).
        #expect(HTTPReply.wholeLength(bytes) == bytes.count)
        #expect(handled.value == 0)
        #expect(live.bodyFiles.isEmpty)
        await live.stop()
    }

    /// Whitespace after the colon is allowed, and names of any token characters are names.
    @Test func ordinaryHeadersStillWork() async throws {
        var router = Router()
        router.get("/hello") { request in .text(request.headers["x-odd_name.~!"] ?? "-") }
        let live = try LiveServer(router: router)
        let reply = try await live.exchange(
            "GET /hello HTTP/1.1\r\nHost: x\r\nX-Odd_Name.~!:\t \tvalue\r\nX-Empty:\r\nConnection: close\r\n\r\n")
        #expect(reply.status == 200)
        #expect(reply.text == "value")
        await live.stop()
    }
}
