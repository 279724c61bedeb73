import Foundation
import HTTPServer
import TestSupport
import Testing

/// A handler is not queued behind work the process started before the request came: the
/// cooperative pool serves one priority first come, first served, and on two cores a backlog of
/// background jobs once kept clients waiting past their timeouts.
@Suite struct HandlerPriorityTests {
    static let backlog = 100

    @Test func aRequestIsAnsweredWhileTheBacklogIsStillRunning() async throws {
        let finished = Counter()
        var router = Router()
        router.get("/finished") { _ in .text("\(finished.value)") }
        let live = try LiveServer(router: router)
        let connection = try await RawConnection.open(port: live.port)
        // Jobs at the default priority that hold their thread, as a blocking call would; the
        // backlog takes seconds on any machine, while a handler answers in milliseconds. The
        // request goes out right after them, from this call (a test resumed after an await
        // would itself wait behind the backlog); the reply tells what the handler saw.
        let jobs = (0..<Self.backlog).map { _ in
            Task.detached(priority: .medium) {
                usleep(20_000)
                finished.increment()
            }
        }
        await connection.send("GET /finished HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try #require(await connection.readReply())
        #expect(reply.status == 200)
        let seen = try #require(Int(reply.text))
        #expect(seen < Self.backlog / 2, "the handler ran after \(seen) of the \(Self.backlog) jobs queued before it")
        for job in jobs { await job.value }
        await live.stop()
    }
}
