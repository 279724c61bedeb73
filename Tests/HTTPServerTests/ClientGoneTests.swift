import HTTPServer
import Synchronization
import TestSupport
import Testing

/// A handler learns when its client has hung up: its task is cancelled, so work done only for
/// that client stops instead of running to its end in a slot others need.
@Suite struct ClientGoneTests {
    final class Outcome: Sendable {
        let started = Counter()
        let cancelled = Counter()
    }

    func start(_ outcome: Outcome) throws -> LiveServer {
        var router = Router()
        router.get("/slow") { _ in
            outcome.started.increment()
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                outcome.cancelled.increment()
            }
            return .text("done")
        }
        return try LiveServer(router: router)
    }

    @Test func aClientThatHangsUpCancelsItsHandler() async throws {
        let outcome = Outcome()
        let live = try start(outcome)
        defer { Task { await live.stop() } }
        let connection = try await RawConnection.open(port: live.port, sending: Array("GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        #expect(await eventually(timeout: .seconds(60)) { outcome.started.value == 1 })
        connection.close()
        #expect(await eventually(timeout: .seconds(60)) { outcome.cancelled.value == 1 }, "the handler stopped waiting for nobody")
        #expect(await eventually(timeout: .seconds(60)) { live.server.requestsInFlight == 0 })
    }

    @Test func aClientThatWaitsIsAnswered() async throws {
        let outcome = Outcome()
        var router = Router()
        router.get("/wait") { _ in
            do {
                try await Task.sleep(for: .seconds(1))
            } catch {
                outcome.cancelled.increment()
            }
            return .text("done")
        }
        let live = try LiveServer(router: router)
        defer { Task { await live.stop() } }
        let reply = try await live.get("/wait")
        #expect(reply.status == 200 && reply.text == "done")
        #expect(outcome.cancelled.value == 0)
    }
}
