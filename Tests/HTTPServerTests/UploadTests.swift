import Digests
import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Request bodies streamed to files: limits, intact arrival, and no file left behind, whatever
/// the client does.
@Suite struct UploadTests {
    /// What the upload handler saw.
    final class Received: Sendable {
        private let seen = Mutex<[(path: String, bytes: [UInt8], sha256: String?)]>([])

        func record(_ body: RequestBody?) {
            guard let body, let data = FileManager.default.contents(atPath: body.path) else { return }
            seen.withLock { $0.append((body.path, [UInt8](data), body.sha256)) }
        }

        var all: [(path: String, bytes: [UInt8], sha256: String?)] { seen.withLock { $0 } }
    }

    /// What this test's routes were handed: whole bodies, and the salvage of cut ones.
    let received = Received()
    let salvaged = Received()

    func start(configure: (inout Configuration) -> Void = { _ in }) throws -> LiveServer {
        var router = Router()
        router.put("/upload", body: .file(maxBytes: 8 << 20, sha256: true)) { request in
            received.record(request.body)
            return .text("\(request.body?.size ?? -1)")
        }
        router.add(
            "PATCH", "/piece", body: .file(maxBytes: 1 << 30, sha256: true),
            handler: { request in
                received.record(request.body)
                return .text("\(request.body?.size ?? -1)")
            }, salvage: { salvaged.record($0.body) })
        router.post("/small", body: .file(maxBytes: 1000)) { request in
            received.record(request.body)
            return .text("\(request.body?.size ?? -1)")
        }
        router.post("/nobody") { _ in .text("no body") }
        return try LiveServer(router: router, configure: configure)
    }

    static func chunked(_ pieces: [[UInt8]]) -> [UInt8] {
        pieces.flatMap { Array("\(String($0.count, radix: 16))\r\n".utf8) + $0 + Array("\r\n".utf8) } + Array("0\r\n\r\n".utf8)
    }

    @Test func aFewMegabytesArriveIntactAndTheFileIsGoneAfterwards() async throws {
        let live = try start()
        let sent = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let reply = try await live.request("PUT", "/upload", body: sent)
        #expect(reply.status == 200)
        #expect(reply.text == "\(sent.count)")
        #expect(received.all.count == 1)
        #expect(received.all.first?.bytes == sent)
        #expect(received.all.first?.path.hasSuffix(".upload") == true)
        #expect(await eventually { live.bodyFiles.isEmpty })
        await live.stop()
    }

    /// A body is named by its SHA-256 as it streams in, in whatever pieces it comes: the
    /// handler need not read the file again to know its bytes.
    @Test(arguments: [false, true]) func aBodyArrivesWithItsSHA256(chunked: Bool) async throws {
        let live = try start()
        let sent = (0..<(2 << 20) + 12345).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let reply =
            if chunked {
                try await live.exchange(
                    Array("PUT /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                        + Self.chunked([Array(sent.prefix(1000)), Array(sent[1000..<(1 << 20)]), Array(sent[(1 << 20)...])]))
            } else {
                try await live.request("PUT", "/upload", body: sent)
            }
        #expect(reply.status == 200)
        let body = try #require(received.all.first)
        #expect(body.bytes == sent)
        #expect(body.sha256 == Hex.text(Digest.sha256(sent)))
        await live.stop()
    }

    /// A route that does not ask for the hash is given none, and its body costs no hashing.
    @Test func aBodyIsHashedOnlyWhereItsRouteAsks() async throws {
        let live = try start()
        let reply = try await live.request("POST", "/small", body: Array("not named".utf8))
        #expect(reply.status == 200)
        let body = try #require(received.all.first)
        #expect(body.bytes == Array("not named".utf8))
        #expect(body.sha256 == nil)
        await live.stop()
    }

    /// The bytes and the client's end arrive together, which libmicrohttpd 0.9.75 alone would
    /// notice only when the connection times out (here, not for ten minutes).
    @Test func aBodyCutShortIsHandedToTheRoutesSalvageAtOnceWithTheBytesThatArrived() async throws {
        let live = try start { $0.connectionTimeout = .seconds(600) }
        let sent = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let connection = try await RawConnection.open(
            port: live.port,
            sending: Array("PATCH /piece HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\n\r\n".utf8) + sent.prefix(1 << 19))
        // The body has begun; the rest and the end go together.
        #expect(await eventually { live.bodyFiles.count == 1 })
        await connection.send(Array(sent.suffix(from: 1 << 19)))
        connection.close()
        #expect(await eventually(timeout: .seconds(30)) { !salvaged.all.isEmpty })
        #expect(salvaged.all.first.map { $0.bytes == sent } == true, "the bytes that came, exactly")
        #expect(salvaged.all.first?.sha256 == Hex.text(Digest.sha256(sent)), "named by what came")
        #expect(received.all.isEmpty)
        #expect(await eventually { live.bodyFiles.isEmpty })
        #expect(live.log.all.contains { $0.hasPrefix("PATCH /piece - - ") })
        // A route without a salvage loses a cut body (aClientThatDisconnectsMidBodyLeavesNoFile).
        await live.stop()
    }

    @Test func chunkedBodiesWithinTheLimitArrive() async throws {
        let live = try start()
        let pieces = [[UInt8](repeating: 1, count: 300), [UInt8](repeating: 2, count: 300), [UInt8](repeating: 3, count: 300)]
        let reply = try await live.exchange(
            Array("POST /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + Self.chunked(pieces))
        #expect(reply.status == 200)
        #expect(received.all.first?.bytes == pieces.flatMap { $0 })
        await live.stop()
    }

    @Test func aDeclaredLengthOverTheLimitGets413BeforeAnyBody() async throws {
        let live = try start()
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        let reply = try #require(HTTPReply(await connection.readToEnd()))
        #expect(reply.status == 413)
        #expect(reply.text.hasPrefix(#"{"code":"too_large""#))
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        #expect(received.all.isEmpty)
        #expect(live.bodyFiles.isEmpty)
        let bodyless = try await live.request("POST", "/nobody", body: Array("hello".utf8))
        #expect(bodyless.status == 413)
        #expect(bodyless.text.hasPrefix(#"{"code":"body_not_allowed""#))
        await live.stop()
    }

    @Test func aChunkedBodyOverTheLimitIsCutWith413AndLeavesNoFile() async throws {
        let live = try start()
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        await connection.send(Array("258\r\n".utf8) + [UInt8](repeating: 7, count: 600) + Array("\r\n".utf8))
        #expect(await eventually { live.bodyFiles.count == 1 })
        await connection.send(Array("258\r\n".utf8) + [UInt8](repeating: 7, count: 600) + Array("\r\n".utf8))
        let reply = try #require(HTTPReply(await connection.readToEnd()))
        #expect(reply.status == 413)
        #expect(reply.text.hasPrefix(#"{"code":"too_large""#))
        #expect(reply.headers["Connection"] == "close")
        #expect(received.all.isEmpty)
        #expect(await eventually { live.bodyFiles.isEmpty })
        await live.stop()
    }

    @Test func aBodySlowerThanTheMinimumRateIsCutAndLeavesNoFile() async throws {
        let live = try start {
            $0.minimumBodyRate = 16 * 1024
            $0.minimumBodyRateGrace = .seconds(1)
        }
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
        // Ten bytes a second, until the server has had enough (it should after about a second).
        for _ in 0..<10 {
            guard await connection.send([UInt8](repeating: 1, count: 10)) else { break }
            try await Task.sleep(for: .seconds(1))
        }
        let bytes = await connection.readToEnd()
        if let reply = HTTPReply(bytes) {
            #expect(reply.status == 408)
            #expect(reply.text.hasPrefix(#"{"code":"too_slow""#))
        } else {
            #expect(bytes.isEmpty, "the connection closes, with a 408 or without an answer")
        }
        #expect(received.all.isEmpty)
        #expect(await eventually { live.bodyFiles.isEmpty })
        #expect(await eventually { live.log.all.contains { $0.hasPrefix("PUT /upload 408 ") } })
        await live.stop()
    }

    @Test func aClientThatDisconnectsMidBodyLeavesNoFile() async throws {
        let live = try start()
        let connection = try await RawConnection.open(port: live.port)
        await connection.send(
            Array("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n".utf8) + [UInt8](repeating: 1, count: 5000))
        #expect(await eventually { live.bodyFiles.count == 1 })
        connection.close()
        #expect(await eventually { live.bodyFiles.isEmpty })
        #expect(await eventually { live.log.all.contains { $0.hasPrefix("PUT /upload - - ") } })
        #expect(received.all.isEmpty)
        await live.stop()
    }

    @Test func aBodyFolderThatCannotBeWrittenIsOurs500() async throws {
        let live = try start { $0.bodyDirectory += "/missing" }
        let reply = try await live.request("PUT", "/upload", body: Array("hello".utf8))
        #expect(reply.status == 500)
        #expect(reply.text == #"{"code":"internal","message":"Something went wrong on the server."}"#)
        #expect(live.log.all.contains { $0.hasPrefix("storing a request body failed") })
        #expect(received.all.isEmpty)
        await live.stop()
    }

    @Test func aBodyShorterThanDeclaredIsCutByTheConnectionTimeout() async throws {
        let live = try start { $0.connectionTimeout = .seconds(2) }
        // The body file lives for about the timeout; the kernel's record of it cannot be missed.
        let events = FolderEvents(live.bodyFolder.path)
        // Connected and sent at once, so that the timeout cannot run out before the request is in.
        let connection = try await RawConnection.open(
            port: live.port,
            sending: Array("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n".utf8) + [UInt8](repeating: 1, count: 10))
        #expect(await connection.readToEnd().isEmpty)
        #expect(await eventually { live.bodyFiles.isEmpty })
        #expect(await eventually { live.log.all.contains { $0.hasPrefix("PUT /upload - - ") } })
        let files = events.files(endingWith: ".upload")
        #expect(files.count == 1, "the body was being stored when the connection timed out")
        #expect(files.allSatisfy { $0.deleted })
        #expect(received.all.isEmpty)
        await live.stop()
    }
}
