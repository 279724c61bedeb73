import Foundation
import HTTPServer
import TestSupport
import Testing

/// The same server over HTTPS: files (which MHD cannot sendfile under TLS), ranges, fast and
/// async handlers, streamed bodies and the early 413, all through a verifying TLS client.
@Suite struct TLSTests {
    /// 200 KB: over the size read into memory, so it goes out through MHD's file path.
    static let fileBytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    func start(_ certificate: TestCertificate, file: String) throws -> LiveServer {
        var router = Router()
        router.get("/file") { _ in .file(file, contentType: "application/octet-stream", etag: "\"v1\"") }
        router.get("/ready", fast: { _ in .text("fast") }, { _ in .text("slow") })
        router.get("/later") { _ in
            try await Task.sleep(for: .milliseconds(20))
            return .text("after a suspension")
        }
        router.put("/upload", body: .file(maxBytes: 8 << 20)) { request in
            let data = request.body.flatMap { FileManager.default.contents(atPath: $0.path) } ?? Data()
            return .bytes([UInt8](data), contentType: "application/octet-stream")
        }
        router.post("/small", body: .file(maxBytes: 1000)) { request in .text("\(request.body?.size ?? -1)") }
        return try LiveServer(router: router, tls: certificate)
    }

    func fileServer() async throws -> (LiveServer, TestCertificate) {
        let certificate = try await TestCertificate.make()
        let file = certificate.folder.file("served.bin")
        try Data(Self.fileBytes).write(to: URL(fileURLWithPath: file))
        return (try start(certificate, file: file), certificate)
    }

    @Test func filesRangesAndBothKindsOfHandlerAnswerOverTLS() async throws {
        let (live, _) = try await fileServer()
        let whole = try await live.get("/file")
        #expect(whole.status == 200)
        #expect(whole.body == Self.fileBytes)

        let part = try await live.get("/file", headers: ["Range: bytes=150000-150999"])
        #expect(part.status == 206)
        #expect(part.headers["Content-Range"] == "bytes 150000-150999/200000")
        #expect(part.body == Array(Self.fileBytes[150_000..<151_000]))

        #expect(try await live.get("/ready").text == "fast")
        #expect(try await live.get("/later").text == "after a suspension")
        await live.stop()
    }

    @Test func aBodyArrivesIntactOverTLS() async throws {
        let (live, _) = try await fileServer()
        let sent = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let reply = try await live.request("PUT", "/upload", body: sent)
        #expect(reply.status == 200)
        #expect(reply.body == sent)
        await live.stop()
    }

    /// The 413 written while the body is still arriving goes through the TLS session: plain bytes
    /// there would reach the client as a broken record, not as an answer.
    @Test func aChunkedBodyOverTheLimitGetsA413OverTLS() async throws {
        let (live, _) = try await fileServer()
        let chunk = Array("258\r\n".utf8) + [UInt8](repeating: 7, count: 600) + Array("\r\n".utf8)
        let reply = try await live.exchange(
            Array("POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + chunk + chunk)
        #expect(reply.status == 413)
        #expect(reply.text.hasPrefix(#"{"code":"too_large""#))
        await live.stop()
    }

    @Test func aClientThatTrustsAnotherCertificateGetsNoAnswer() async throws {
        let (live, _) = try await fileServer()
        let stranger = try await TestCertificate.make()
        let bytes = try await stranger.exchange(Array("GET /ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: live.port)
        #expect(bytes.isEmpty)
        await live.stop()
    }

    /// TLS 1.0 and 1.1, and TLS 1.2 without an AEAD cipher (CBC with SHA-1 or SHA-2 MACs) or
    /// without ECDHE, get no handshake. SECLEVEL=0 lets this OpenSSL offer what it no longer does
    /// by default.
    @Test(arguments: [
        ["-tls1", "-cipher", "DEFAULT@SECLEVEL=0"],
        ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA@SECLEVEL=0"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA@SECLEVEL=0"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA256"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-CCM"],
    ])
    func oldProtocolsAndCiphersAreRefused(options: [String]) async throws {
        #expect(try await readyOverTLS(options).isEmpty)
    }

    @Test(arguments: [
        ["-tls1_3"],
        ["-tls1_3", "-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"],
        ["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"],
    ])
    func tls12WithAEADAndTLS13AreServed(options: [String]) async throws {
        #expect(HTTPReply(try await readyOverTLS(options))?.text == "fast")
    }

    /// What `GET /ready` brings back through s_client given `options`; empty without a handshake.
    func readyOverTLS(_ options: [String]) async throws -> [UInt8] {
        let (live, certificate) = try await fileServer()
        let bytes = try await certificate.exchange(
            Array("GET /ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: live.port, options: options)
        await live.stop()
        return bytes
    }

    @Test func plainHTTPOnTheTLSPortGetsNoHTTPAnswer() async throws {
        let (live, _) = try await fileServer()
        let connection = try await RawConnection.open(port: live.port)
        await connection.send("GET /ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(HTTPReply(await connection.readToEnd()) == nil)
        await live.stop()
    }

    @Test func aKeyThatIsNotPEMIsRefusedAtStart() async throws {
        let certificate = try await TestCertificate.make()
        var configuration = Configuration(bodyDirectory: certificate.folder.path)
        configuration.port = 0
        configuration.tls = TLSIdentity(certificateChain: certificate.identity.certificateChain, privateKey: "not a key")
        let server = Server(configuration: configuration, router: Router())
        let error = #expect(throws: HTTPError.self) { try server.start() }
        #expect(error?.code == "tls_identity_invalid")
    }
}
