import Foundation
import HTTPServer
import TestSupport
import Testing

@Suite struct LifecycleTests {
    /// A server whose `/slow` handler counts its calls and then waits for `release` (or, if none
    /// is given, sleeps for ten minutes unless cancelled).
    func start(started: Counter, release: Gate? = nil, configure: (inout Configuration) -> Void = { _ in }) throws -> LiveServer {
        var router = Router()
        router.get("/slow") { _ in
            started.increment()
            if let release {
                await release.wait()
            } else {
                try await Task.sleep(for: .seconds(600))
            }
            return .text("done")
        }
        return try LiveServer(router: router, configure: configure)
    }

    /// Waits until the server refuses new connections, which it does from the moment a stop
    /// begins: after this, requests on connections already open must get a 503.
    func waitUntilStopping(_ live: LiveServer) async -> Bool {
        await eventually { !RawConnection.isAccepting(port: live.port) }
    }

    @Test func stopLetsARunningHandlerFinishThenFreesThePort() async throws {
        let started = Counter()
        let release = Gate()
        let live = try start(started: started, release: release) { $0.stopGrace = .seconds(120) }
        let port = live.port
        let connection = try await RawConnection.open(port: port)
        await connection.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await eventually { started.value == 1 })
        async let stopped: Void = live.stop()
        #expect(await waitUntilStopping(live))
        // The handler finishes only now, well into the stop.
        release.open()
        let reply = try #require(HTTPReply(await connection.readToEnd()))
        await stopped
        #expect(reply.status == 200)
        #expect(reply.text == "done")
        await #expect(throws: RawConnection.Failure.self) { try await RawConnection.open(port: port) }
        let again = try LiveServer(router: Router()) { $0.port = port }
        #expect(again.port == port)
        await again.stop()
    }

    @Test func stopAnswers503ForHandlersStillRunningAfterTheGrace() async throws {
        let started = Counter()
        // The handler would take ten minutes; the stop must not wait for it.
        let live = try start(started: started) { $0.stopGrace = .milliseconds(200) }
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await eventually { started.value == 1 })
        let clock = ContinuousClock()
        let elapsed = await clock.measure { await live.stop() }
        let reply = try #require(HTTPReply(await connection.readToEnd()))
        #expect(reply.status == 503)
        #expect(reply.text.hasPrefix(#"{"code":"shutting_down""#))
        #expect(elapsed < .seconds(300))
    }

    @Test func requestsOnOpenConnectionsDuringAStopGet503() async throws {
        let started = Counter()
        let release = Gate()
        let live = try start(started: started, release: release) { $0.stopGrace = .seconds(120) }
        let idle = try await RawConnection.open(port: live.port)
        let busy = try await RawConnection.open(port: live.port)
        await busy.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await eventually { started.value == 1 })
        async let stopped: Void = live.stop()
        // The stop is waiting for the busy request, which waits for the gate; the idle connection is still open.
        #expect(await waitUntilStopping(live))
        await idle.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = try #require(HTTPReply(await idle.readToEnd()))
        #expect(refused.status == 503)
        #expect(refused.headers["Connection"] == "close")
        release.open()
        let finished = try #require(HTTPReply(await busy.readToEnd()))
        #expect(finished.status == 200)
        await stopped
        #expect(started.value == 1)
    }

    @Test func stopIsIdempotent() async throws {
        let live = try start(started: Counter(), release: Gate())
        async let first: Void = live.stop()
        async let second: Void = live.stop()
        _ = await (first, second)
        await live.stop()
        #expect(throws: HTTPError.self) { try live.server.start() }
    }

    @Test func aTakenPortIsAClearError() async throws {
        let live = try start(started: Counter(), release: Gate())
        var configuration = Configuration(bodyDirectory: live.bodyFolder.path)
        configuration.port = live.port
        let second = Server(configuration: configuration, router: Router())
        #expect {
            try second.start()
        } throws: { error in
            (error as? HTTPError)?.code == "address_in_use" && (error as? HTTPError)?.message.contains("\(live.port)") == true
        }
        await live.stop()
    }

    @Test(.enabled(if: LifecycleTests.hasIPv6Loopback)) func listensOnIPv6() async throws {
        var router = Router()
        router.get("/address") { request in .text(request.remoteAddress) }
        let live = try LiveServer(router: router) { $0.host = "::1" }
        let connection = try await RawConnection.open(port: live.port, host: "::1")
        await connection.send("GET /address HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = try #require(HTTPReply(await connection.readToEnd()))
        #expect(reply.text == "::1")
        await live.stop()
    }

    static var hasIPv6Loopback: Bool {
        (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8))?.contains("00000000000000000000000000000001") == true
    }

    @Test func aHostThatIsNotAnAddressIsRefused() {
        var configuration = Configuration(bodyDirectory: "/tmp")
        configuration.host = "example.com"
        configuration.port = 0
        #expect {
            try Server(configuration: configuration, router: Router()).start()
        } throws: { error in
            (error as? HTTPError)?.code == "invalid_address"
        }
    }
}
