import Foundation
import HTTPServer
import Memo
import Synchronization
import TestSupport
import Testing

/// Routes with a fast handler: it answers on libmicrohttpd's thread, with no task, or leaves the
/// request to the route's async handler by returning nil.
@Suite struct FastHandlerTests {
    struct Secret: Error, CustomStringConvertible {
        var description: String { "cache index said no about row 7" }
    }

    let folder = TemporaryDirectory("http-fast")
    let seen = Seen()
    let fileBytes: [UInt8] = (0..<9000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) }

    /// What the fast handlers saw: whether they ran inside a task, and how often the async handler ran.
    final class Seen: Sendable {
        let inTask = Mutex<[Bool]>([])
        let handled = Counter()
    }

    func start() throws -> LiveServer {
        #expect(FileManager.default.createFile(atPath: folder.file("thumb.webp"), contents: Data(fileBytes)))
        let path = folder.file("thumb.webp")
        var router = Router()
        let slow: Router.Handler = { _ in
            seen.handled.increment()
            return .text("slow")
        }
        router.get(
            "/fast",
            fast: { _ in
                seen.inTask.withLock { $0.append(withUnsafeCurrentTask { $0 != nil }) }
                return .text("fast")
            }, slow)
        router.get("/declines", fast: { _ in nil }, slow)
        router.get("/thumb/:name", fast: { _ in .file(path, contentType: "image/webp", etag: "\"t1\"", cacheControl: "max-age=60") }, slow)
        let prepared = PreparedBody(StableBytes(fileBytes))
        router.get(
            "/prepared/:name",
            fast: { request in
                var response = Response(
                    headers: Headers([("Content-Type", "image/webp"), ("ETag", "\"p1\""), ("Cache-Control", "max-age=60")]),
                    body: .prepared(prepared))
                // A response that differs from the one the body was first sent with.
                if request.parameter("name") == "other" { response.headers["X-Other"] = "yes" }
                return response
            }, slow)
        router.get("/teapot", fast: { _ in throw HTTPError(418, "teapot", "I am a teapot.") }, slow)
        router.get("/boom", fast: { _ in throw Secret() }, slow)
        return try LiveServer(router: router)
    }

    /// The replies to plain GETs of `targets`, sent one after another on `connection`, which
    /// stays open.
    func getInTurn(_ targets: [String], on connection: RawConnection) async throws -> [HTTPReply] {
        var replies: [HTTPReply] = []
        for target in targets {
            await connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            replies.append(try #require(await connection.readReply()))
        }
        return replies
    }

    @Test func answersOnTheServersThreadWithoutTheHandler() async throws {
        let live = try start()
        let reply = try await live.get("/fast")
        #expect(reply.status == 200)
        #expect(reply.text == "fast")
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        let head = try await live.request("HEAD", "/fast")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == "4")
        #expect(seen.inTask.withLock { $0 } == [false, false])
        #expect(seen.handled.value == 0)
        #expect(await eventually { live.log.all.contains { $0.wholeMatch(of: /GET \/fast 200 4 \d+ms/) != nil } })
        await live.stop()
    }

    @Test func nilLeavesTheRequestToTheHandler() async throws {
        let live = try start()
        let reply = try await live.get("/declines")
        #expect(reply.status == 200)
        #expect(reply.text == "slow")
        #expect(seen.handled.value == 1)
        await live.stop()
    }

    @Test func filesGetValidatorsAndRangesLikeAnyResponse() async throws {
        let live = try start()
        let whole = try await live.expectFile("/thumb/a", body: fileBytes, etag: "\"t1\"", range: 100...199)
        #expect(whole.headers["Cache-Control"] == "max-age=60")
        await live.stop()
    }

    /// A prepared body is sent as it was first made, to every plain GET with the same headers;
    /// validators, ranges, HEAD and other headers are still answered as for any body.
    @Test func preparedBodiesAreAnsweredAgainAsFirstMade() async throws {
        let live = try start()
        let replies = try await getInTurn(
            ["/prepared/a", "/prepared/b", "/prepared/other", "/prepared/a"], on: RawConnection.open(port: live.port))
        #expect(replies.map(\.status) == [200, 200, 200, 200])
        #expect(replies.allSatisfy { $0.body.elementsEqual(fileBytes) })
        #expect(replies.map { $0.headers["X-Other"] } == [nil, nil, "yes", nil])
        #expect(replies.allSatisfy { $0.headers["ETag"] == "\"p1\"" && $0.headers["Accept-Ranges"] == "bytes" })
        #expect(
            replies.allSatisfy { $0.headers["X-Content-Type-Options"] == "nosniff" && $0.headers["Content-Length"] == "\(fileBytes.count)" }
        )
        let notModified = try await live.get("/prepared/a", headers: ["If-None-Match: \"p1\""])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        let part = try await live.get("/prepared/a", headers: ["Range: bytes=10-19"])
        #expect(part.status == 206)
        #expect(part.body.elementsEqual(fileBytes[10..<20]))
        let head = try await live.request("HEAD", "/prepared/a")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == "\(fileBytes.count)")
        #expect(await eventually { live.log.all.filter { $0.hasPrefix("GET /prepared/a 200 9000 ") }.count == 2 })
        await live.stop()
    }

    @Test func errorsAreAnsweredLikeTheHandlersErrors() async throws {
        let live = try start()
        let teapot = try await live.get("/teapot")
        #expect(teapot.status == 418)
        #expect(teapot.text == #"{"code":"teapot","message":"I am a teapot."}"#)
        let boom = try await live.get("/boom")
        #expect(boom.status == 500)
        #expect(boom.text == #"{"code":"internal","message":"Something went wrong on the server."}"#)
        #expect(live.log.all.contains { $0.contains("cache index said no about row 7") })
        #expect(seen.handled.value == 0)
        await live.stop()
    }

    /// A client like wrk or a browser keeps its connection: fast answers must not close it.
    @Test func fastAnswersKeepTheConnectionAlive() async throws {
        let live = try start()
        let connection = try await RawConnection.open(port: live.port)
        let replies = try await getInTurn(["/fast", "/thumb/b", "/declines", "/fast"], on: connection)
        #expect(replies.map(\.status) == [200, 200, 200, 200])
        #expect(replies.map(\.text) == ["fast", String(decoding: fileBytes, as: UTF8.self), "slow", "fast"])
        #expect(replies.allSatisfy { $0.headers["Connection"]?.lowercased() != "close" })
        // Still open: one more request on it is answered.
        await connection.send("GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(HTTPReply(await connection.readToEnd())?.text == "fast")
        await live.stop()
    }
}
