import Foundation
import HTTPServer
import TestSupport
import Testing

/// Bodies made while they are sent (`Response.Body.stream`): their bytes arrive whole and in
/// order under their `Content-Length`, however they are cut into chunks and however slowly they
/// come; a producer's failure closes the connection after what was sent; a client that hangs up
/// and a stopping server both end the producer.
@Suite struct StreamedBodyTests {
    /// Bytes whose period (a prime) no chunk size divides, so a chunk lost, repeated or swapped shows.
    static let period = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    static func pattern(_ count: Int, from start: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var offset = start % period.count
        while bytes.count < count {
            let end = min(period.count, offset + count - bytes.count)
            bytes += period[offset..<end]
            offset = 0
        }
        return bytes
    }

    /// Chunks of every kind of size: single bytes, empty ones, one larger than the pipe holds.
    static let chunkSizes = [1, 0, 7, 65_536, 1 << 20, 3 << 20, 12_345, 1, 300_000] + Array(repeating: 4096, count: 200)

    /// A route whose body is `chunkSizes` written in turn, `pause` apart.
    static func chunked(pause: Duration? = nil) -> Router {
        let size = chunkSizes.reduce(0, +)
        var router = Router()
        router.get("/stream") { _ in
            Response(
                headers: Headers([("Content-Type", "application/octet-stream")]),
                body: .stream(
                    StreamedBody(size: size) { writer in
                        var offset = 0
                        for count in chunkSizes {
                            if let pause { try await Task.sleep(for: pause) }
                            guard await writer.write(pattern(count, from: offset)) else { return }
                            offset += count
                        }
                    }))
        }
        router.get("/text") { _ in .text("after") }
        return router
    }

    @Test(arguments: [false, true]) func manyChunksArriveInOrderUnderTheirLength(tls: Bool) async throws {
        let live = try LiveServer(router: Self.chunked(), tls: tls ? try await TestCertificate.make() : nil)
        let reply = try await live.get("/stream")
        let size = Self.chunkSizes.reduce(0, +)
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Length"] == String(size))
        #expect(reply.headers["Content-Type"] == "application/octet-stream")
        #expect(reply.headers["Accept-Ranges"] == nil, "a stream is made from its start")
        #expect(reply.body.count == size)
        #expect(reply.body == Self.pattern(size))
        #expect(await eventually { live.server.requestsInFlight == 0 })
        await live.stop()
    }

    /// The client is ahead of the producer nearly all the time: the connection is suspended and
    /// resumed at each chunk, for several clients at once, and a connection kept alive goes on to
    /// its next request.
    @Test func aSlowProducerKeepsItsConnection() async throws {
        let live = try LiveServer(router: Self.chunked(pause: .milliseconds(2)))
        let size = Self.chunkSizes.reduce(0, +)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let connection = try await RawConnection.open(port: live.port)
                    await connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                    let reply = try #require(await connection.readReply())
                    #expect(reply.body == Self.pattern(size))
                    await connection.send("GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    #expect(try #require(await connection.readReply()).text == "after")
                }
            }
            try await group.waitForAll()
        }
        #expect(live.log.all.allSatisfy { !$0.contains("cut short") })
        await live.stop()
    }

    enum Failure: String, CaseIterable {
        case throwsAnError
        case returnsEarly
        case writesTooMuch
    }

    struct ProducerFailed: Error {}

    /// The client gets the head, then the bytes written before the failure, then the close: fewer
    /// than the `Content-Length`, which is how it knows. The log says why.
    @Test(arguments: Failure.allCases) func aFailingProducerClosesTheConnectionAfterWhatWasSent(failure: Failure) async throws {
        let size = 1 << 20
        var router = Router()
        router.get("/stream") { _ in
            Response(
                body: .stream(
                    StreamedBody(size: size) { writer in
                        guard await writer.write(Self.pattern(100_000)) else { return }
                        switch failure {
                        case .throwsAnError: throw ProducerFailed()
                        case .returnsEarly: return
                        case .writesTooMuch: #expect(await writer.write(Self.pattern(size)) == false)
                        }
                    }))
        }
        let live = try LiveServer(router: router)
        let reply = try await live.get("/stream")
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Length"] == String(size))
        #expect(reply.body.count < size)
        #expect(reply.body == Self.pattern(reply.body.count), "what came is what was written")
        let reason =
            switch failure {
            case .throwsAnError: "its producer failed: ProducerFailed()"
            case .returnsEarly: "its producer wrote 100000 of its 1048576 bytes"
            case .writesTooMuch: "its producer wrote past its 1048576 bytes"
            }
        #expect(await eventually { live.log.all.contains { $0 == "/stream was cut short: \(reason)" } }, "\(live.log.all)")
        #expect(await eventually { live.server.requestsInFlight == 0 })
        await live.stop()
    }

    /// Counts a producer's writes and whether it has returned.
    final class Progress: Sendable {
        let writes = Counter()
        let ended = Gate()
        let endedCount = Counter()
    }

    /// An endless body (a GiB) in chunks of a MiB, until the writer refuses.
    static func endless(_ progress: Progress, then: @escaping @Sendable () async -> Void = {}) -> Router {
        var router = Router()
        router.get("/endless") { _ in
            Response(
                body: .stream(
                    StreamedBody(size: 1 << 30) { writer in
                        defer {
                            progress.endedCount.increment()
                            progress.ended.open()
                        }
                        let chunk = [UInt8](repeating: 0x5A, count: 1 << 20)
                        while await writer.write(chunk) {
                            progress.writes.increment()
                            await then()
                        }
                    }))
        }
        return router
    }

    /// The client reads nothing, then hangs up while the producer waits for room: the socket
    /// buffers fill, the producer stops a couple of MiB later (a GiB would take it no time), its
    /// next write is refused once the client is gone, it returns, and no request is left in flight.
    @Test func aClientThatHangsUpEndsTheProducer() async throws {
        let progress = Progress()
        let live = try LiveServer(router: Self.endless(progress))
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        // The pipe holds two chunks; a third has gone into the socket (libmicrohttpd leaves the
        // rest of loopback's buffers to what it sends next).
        #expect(await eventually { progress.writes.value >= 3 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(progress.writes.value < 32, "loopback's socket buffers and the pipe's two chunks, no more")
        #expect(live.server.requestsInFlight == 2, "the request and its producer")
        connection.close()
        await progress.ended.wait()
        #expect(await eventually { live.server.requestsInFlight == 0 })
        #expect(progress.writes.value < 1024)
        await live.stop()
    }

    /// A stop ends a stream whose producer waits on something that never comes (a store that
    /// hangs): the connection, suspended until the next chunk, is resumed and closed, the
    /// producer is cancelled, and the stop returns (libmicrohttpd aborts when stopped with a
    /// connection still suspended).
    @Test func aStopEndsAStreamWaitingForItsProducer() async throws {
        let progress = Progress()
        let live = try LiveServer(router: Self.endless(progress) { try? await Task.sleep(for: .seconds(600)) }) {
            $0.stopGrace = .milliseconds(200)
        }
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { progress.writes.value == 1 })
        let received = Task { await connection.readToEnd() }
        await live.stop()
        let reply = try #require(HTTPReply(await received.value))
        #expect(reply.status == 200)
        #expect(reply.body.count == 1 << 20, "the chunk written before the stop, then the close")
        await progress.ended.wait()
        #expect(progress.endedCount.value == 1)
        #expect(live.server.requestsInFlight == 0)
    }

    /// HEAD gets the length a GET would, and no producer runs for it.
    @Test func headTellsTheLengthWithoutProducing() async throws {
        let progress = Progress()
        let live = try LiveServer(router: Self.endless(progress))
        let reply = try await live.request("HEAD", "/endless")
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Length"] == String(1 << 30))
        #expect(reply.body.isEmpty)
        #expect(progress.endedCount.value == 0 && progress.writes.value == 0)
        #expect(live.server.requestsInFlight == 0)
        await live.stop()
    }
}
