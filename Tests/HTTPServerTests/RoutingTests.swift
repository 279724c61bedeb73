import HTTPServer
import TestSupport
import Testing

@Suite struct RoutingTests {
    struct Secret: Error, CustomStringConvertible {
        var description: String { "database said no about row 42" }
    }

    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/photos/:id/sizes/:size") { request in
            .text("\(request.parameter("id")) \(request.parameter("size")) \(request.query["q"] ?? "-") \(request.remoteAddress)")
        }
        router.delete("/photos/:id") { _ in Response(status: 204) }
        router.get("/boom") { _ in throw Secret() }
        router.get("/teapot") { _ in throw HTTPError(418, "teapot", "I am a teapot.") }
        return router
    }

    @Test func routesWithPathParametersAndQuery() async throws {
        let live = try LiveServer(router: Self.router())
        let reply = try await live.get("/photos/a%20b/sizes/large?q=x+y%21&q=second")
        #expect(reply.status == 200)
        #expect(reply.text == "a b large x y! 127.0.0.1")
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        await live.stop()
    }

    /// A target routed before is answered from what its routing kept, by method: the same
    /// parameters and query, another method still refused, a long target routed each time.
    @Test func aTargetRoutedAgainGetsTheSameRouteByMethod() async throws {
        let live = try LiveServer(router: Self.router())
        for _ in 0..<3 {
            let again = try await live.get("/photos/p1/sizes/small?q=z")
            #expect(again.status == 200 && again.text == "p1 small z 127.0.0.1")
        }
        let other = try await live.get("/photos/p2/sizes/small?q=w")
        #expect(other.text == "p2 small w 127.0.0.1")
        let deleted = try await live.request("DELETE", "/photos/p1")
        #expect(deleted.status == 204)
        #expect(try await live.request("DELETE", "/photos/p1/sizes/small?q=z").status == 405)
        let long = String(repeating: "x", count: 2000)
        for _ in 0..<2 {
            #expect(try await live.get("/photos/p3/sizes/\(long)").text == "p3 \(long) - 127.0.0.1")
        }
        await live.stop()
    }

    @Test func unknownPathsAreJSON404s() async throws {
        let live = try LiveServer(router: Self.router())
        let reply = try await live.get("/nothing/here")
        #expect(reply.status == 404)
        #expect(reply.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(reply.text == #"{"code":"not_found","message":"There is nothing here."}"#)
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        await live.stop()
    }

    @Test func otherMethodsGet405WithAllow() async throws {
        let live = try LiveServer(router: Self.router())
        let reply = try await live.request("POST", "/hello")
        #expect(reply.status == 405)
        #expect(reply.headers["Allow"] == "GET, HEAD")
        #expect(reply.text.hasPrefix(#"{"code":"method_not_allowed","message":"#))
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        let deleted = try await live.request("DELETE", "/photos/7")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        await live.stop()
    }

    @Test func handlerErrorsBecomeA500WithTheDetailOnlyInTheLog() async throws {
        let live = try LiveServer(router: Self.router())
        let reply = try await live.get("/boom")
        #expect(reply.status == 500)
        #expect(reply.text == #"{"code":"internal","message":"Something went wrong on the server."}"#)
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        #expect(live.log.all.contains { $0.contains("database said no about row 42") })
        await live.stop()
    }

    @Test func responseErrorsKeepTheirStatusAndCode() async throws {
        let live = try LiveServer(router: Self.router())
        let reply = try await live.get("/teapot")
        #expect(reply.status == 418)
        #expect(reply.text == #"{"code":"teapot","message":"I am a teapot."}"#)
        await live.stop()
    }

    @Test func eachRequestGetsOneAccessLogLineWithoutItsQuery() async throws {
        let live = try LiveServer(router: Self.router())
        _ = try await live.get("/hello?token=secret-value")
        _ = try await live.get("/nothing")
        let logged = await eventually { live.log.all.count >= 2 }
        #expect(logged)
        let lines = live.log.all
        #expect(lines.contains { $0.wholeMatch(of: /GET \/hello 200 5 \d+ms/) != nil })
        #expect(lines.contains { $0.wholeMatch(of: /GET \/nothing 404 \d+ \d+ms/) != nil })
        #expect(!lines.contains { $0.contains("secret-value") })
        await live.stop()
    }

    @Test func keepAliveConnectionsServeOneRequestAfterAnother() async throws {
        let live = try LiveServer(router: Self.router())
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try #require(await connection.readReply())
        #expect(first.status == 200 && first.text == "hello")
        await connection.send("GET /teapot HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let rest = String(decoding: await connection.readToEnd(), as: UTF8.self)
        #expect(rest.hasPrefix("HTTP/1.1 418 "), "the same connection, and closed after the answer the client asked to be the last")
        await live.stop()
    }
}
