import Foundation
import HTTPServer
import IPAddress
import TestSupport
import Testing

/// `InProcessClient` answers as the server does: the same requests, asked of both, get the same
/// status, the same headers a client reads, and the same body.
@Suite struct InProcessClientTests {
    let folder = TemporaryDirectory("http-in-process")
    let fileBytes: [UInt8] = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    func router() -> Router {
        #expect(FileManager.default.createFile(atPath: folder.file("photo.bin"), contents: Data(fileBytes)))
        var router = Router()
        let path = folder.file("photo.bin")
        let fast: Router.FastHandler = { request in
            guard request.parameter("name") == "fast" else { return nil }
            return .file(path, contentType: "image/x-test", etag: "\"p1\"", cacheControl: "max-age=9")
        }
        let slow: Router.Handler = { request in
            var response = Response.file(path, range: 10..<60_010, contentType: "image/x-test", etag: "\"p2\"")
            response.headers["X-Name"] = request.parameter("name")
            return response
        }
        router.get("/photo/:name", fast: fast, slow)
        router.get("/gone") { [folder] _ in .file(folder.file("missing.bin"), contentType: "image/x-test") }
        router.get("/query") { request in .text("\(request.query["a"] ?? "-")|\(request.remoteAddress)|\(request.throughProxy)") }
        router.get("/fails") { _ in throw CocoaError(.fileNoSuchFile) }
        router.get("/refuses") { _ in throw HTTPError(409, "busy", "Not now.") }
        router.get("/stream") { _ in
            Response(
                headers: Headers([("Content-Type", "application/zip")]),
                body: .stream(
                    StreamedBody(size: 300_000) { writer in
                        for start in stride(from: 0, to: 300_000, by: 100_000) {
                            guard await writer.write((start..<start + 100_000).map { UInt8(truncatingIfNeeded: $0) }) else { return }
                        }
                    }))
        }
        router.add(
            "PUT", "/body", body: .file(maxBytes: 1000), check: { $0.headers["X-Refuse"] == nil ? nil : .text("refused", status: 422) },
            handler: { request in
                let bytes = try Data(contentsOf: URL(fileURLWithPath: request.body?.path ?? "/nonexistent"))
                return .text("\(bytes.count) \(bytes.reduce(0) { $0 &+ Int($1) })", status: 201)
            })
        router.gate = { request, _ in request.headers["X-Gate"] == nil ? nil : .text("gated", status: 403) }
        router.finish = { request, response in response.headers["X-Finished"] = request.method }
        return router
    }

    struct Asked: Sendable, CustomTestStringConvertible {
        let method: String
        let target: String
        var headers: [(String, String)] = []
        var body: [UInt8]? = nil
        var testDescription: String { "\(method) \(target) \(headers.map(\.0))" }
    }

    static let asked: [Asked] = [
        Asked(method: "GET", target: "/photo/fast"),
        Asked(method: "GET", target: "/photo/slow"),
        Asked(method: "HEAD", target: "/photo/slow"),
        Asked(method: "GET", target: "/photo/fast", headers: [("If-None-Match", "\"p1\"")]),
        Asked(method: "GET", target: "/photo/slow", headers: [("Range", "bytes=100-199")]),
        Asked(method: "GET", target: "/photo/slow", headers: [("Range", "bytes=-50")]),
        Asked(method: "GET", target: "/photo/slow", headers: [("Range", "bytes=90000-")]),
        Asked(method: "GET", target: "/photo/slow", headers: [("Range", "bytes=5-9"), ("If-Range", "\"other\"")]),
        Asked(method: "GET", target: "/gone"),
        Asked(method: "GET", target: "/query?a=%C3%A9t%C3%A9&a=2"),
        Asked(method: "GET", target: "/fails"),
        Asked(method: "GET", target: "/refuses"),
        Asked(method: "GET", target: "/stream"),
        Asked(method: "HEAD", target: "/stream"),
        Asked(method: "POST", target: "/photo/x"),
        Asked(method: "GET", target: "/nowhere"),
        Asked(method: "GET", target: "/photo/%2e%2e"),
        Asked(method: "GET", target: "/query", headers: [("X-Gate", "1")]),
        Asked(method: "PUT", target: "/body", body: Array("hello, body".utf8)),
        Asked(method: "PUT", target: "/body", body: [UInt8](repeating: 1, count: 1001)),
        Asked(method: "PUT", target: "/body", headers: [("X-Refuse", "1")], body: [1, 2, 3]),
        Asked(method: "GET", target: "/query", body: [1]),
    ]

    /// The headers a client reads; the server's own `Date` and `Connection` are the socket's.
    static let compared = [
        "Content-Type", "Content-Length", "Content-Range", "Accept-Ranges", "ETag", "Cache-Control", "Allow", "X-Content-Type-Options",
        "X-Name", "X-Finished",
    ]

    @Test(arguments: asked) func anAnswerInProcessIsTheServersAnswer(asked: Asked) async throws {
        let router = router()
        let live = try LiveServer(router: router)
        defer { Task { await live.stop() } }
        let client = InProcessClient(router: router, bodyDirectory: live.bodyFolder.path)
        let overTheWire = try await live.request(
            asked.method, asked.target, headers: asked.headers.map { "\($0.0): \($0.1)" }, body: asked.body ?? [])
        var headers = Headers(asked.headers)
        headers["Host"] = "localhost"
        let inProcess = try await client.send(asked.method, asked.target, headers: headers, body: asked.body)
        #expect(inProcess.status == overTheWire.status)
        for name in Self.compared {
            #expect(inProcess.headers[name] == overTheWire.headers[name], "\(name)")
        }
        #expect(inProcess.body == overTheWire.body)
        #expect(live.bodyFiles.isEmpty, "no request body is left behind")
    }

    /// The client's address is the peer's, or behind a proxy the operator named, the one it forwarded for.
    @Test func theClientIsWhoTheProxySays() async throws {
        let client = InProcessClient(
            router: router(), bodyDirectory: folder.path, forwardedFor: ForwardedFor(proxies: [try #require(IPAddress("10.0.0.1"))]))
        let direct = try await client.send("GET", "/query", from: "192.168.1.9")
        #expect(String(decoding: direct.body, as: UTF8.self) == "-|192.168.1.9|false")
        let proxied = try await client.send("GET", "/query", headers: Headers([("X-Forwarded-For", "203.0.113.7")]), from: "10.0.0.1")
        #expect(String(decoding: proxied.body, as: UTF8.self) == "-|203.0.113.7|true")
    }
}
