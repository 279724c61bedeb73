import Digests
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import Storage
import TestSupport
import Testing

/// tus 1.0 at /api/uploads on a real server: what the protocol's clients send, and every refusal
/// with its status and code.
@Suite struct ResumableUploadRouteTests {
    static let photo = "photos/exifsamples__Canon_40D.jpg"
    static let tus = ["Tus-Resumable": "1.0.0"]

    static func bytes(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))) }

    static func metadata(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
    }

    /// Opens an upload; its path.
    static func create(_ live: LiveServer, length: Int, metadata: String? = nil) async throws -> String {
        var headers = tus.merging(["Upload-Length": String(length)]) { $1 }
        if let metadata { headers["Upload-Metadata"] = metadata }
        let created = try await live.request("POST", "/api/uploads", headers: headers)
        #expect(created.status == 201)
        #expect(created.header("Upload-Offset") == "0")
        #expect(created.header("Tus-Resumable") == "1.0.0")
        return try #require(created.header("Location"))
    }

    static func patch(_ live: LiveServer, _ path: String, offset: Int, _ body: Data, headers: [String: String] = [:]) async throws
        -> LiveServer.Reply
    {
        try await live.request(
            "PATCH", path, body: body,
            headers: tus.merging(["Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream"]) { $1 }
                .merging(headers) { $1 })
    }

    @Test func optionsTellTheVersionExtensionsAndLimits() async throws {
        let live = try LiveServer()
        let reply = try await live.request("OPTIONS", "/api/uploads")
        #expect(reply.status == 204)
        #expect(reply.header("Tus-Version") == "1.0.0")
        #expect(reply.header("Tus-Extension") == "creation,creation-with-upload,creation-defer-length,termination,expiration,checksum")
        #expect(reply.header("Tus-Checksum-Algorithm") == "sha1,sha256")
        #expect(reply.header("Tus-Max-Size") == String(live.library.options.maxFileBytes))
    }

    @Test func piecesSentOneByOneBecomeTheAsset() async throws {
        let live = try LiveServer()
        let bytes = try Self.bytes(Self.photo)
        let half = bytes.count / 2
        let path = try await Self.create(
            live, length: bytes.count, metadata: Self.metadata([("filename", "Ferien 🏖.jpg"), ("album", "cameraRoll")]))

        let first = try await Self.patch(live, path, offset: 0, bytes.prefix(half))
        #expect(first.status == 204)
        #expect(first.header("Upload-Offset") == String(half))
        #expect(first.header("Upload-Expires")?.hasSuffix(" GMT") == true)
        let head = try await live.request("HEAD", path, headers: Self.tus)
        #expect(head.status == 200 && head.header("Upload-Offset") == String(half))
        #expect(head.header("Upload-Length") == String(bytes.count) && head.header("Cache-Control") == "no-store")

        let stale = try await Self.patch(live, path, offset: 0, bytes.suffix(from: half))
        #expect(stale.status == 409 && stale.json["code"] as? String == "upload_conflict")
        #expect(stale.header("Tus-Resumable") == "1.0.0")

        let last = try await Self.patch(live, path, offset: half, bytes.suffix(from: half))
        #expect(last.status == 204 && last.header("Upload-Offset") == String(bytes.count))
        let id = try #require(last.header("X-Asset-ID"))
        let asset = try await live.get("/api/assets/\(id)")
        #expect(asset.json["originalFilename"] as? String == "Ferien 🏖.jpg")
        #expect(asset.json["inCameraRoll"] as? Bool == true)
        let status = try await live.get(path)
        #expect(status.json["state"] as? String == "done" && status.json["assetID"] as? String == id)
        #expect(status.json["duplicate"] as? Bool == false)
    }

    @Test func aCreationThatBringsTheWholeFileAnswersWithItsAssetAndADuplicateSaysSo() async throws {
        let live = try LiveServer()
        let bytes = try Self.bytes(Self.photo)
        let headers = Self.tus.merging(["Upload-Length": String(bytes.count), "Content-Type": "application/offset+octet-stream"]) { $1 }
        let first = try await live.request("POST", "/api/uploads", body: bytes, headers: headers)
        #expect(first.status == 201 && first.header("Upload-Offset") == String(bytes.count))
        let id = try #require(first.header("X-Asset-ID"))
        #expect(first.header("X-Asset-Duplicate") == nil)

        let again = try await live.request("POST", "/api/uploads", body: bytes, headers: headers)
        #expect(again.header("X-Asset-ID") == id && again.header("X-Asset-Duplicate") == "true")
        #expect(try await live.get(try #require(again.header("Location"))).json["duplicate"] as? Bool == true)
    }

    @Test func aPieceWhoseChecksumDiffersIs460AndTheRightOneIsKept() async throws {
        let live = try LiveServer()
        let bytes = try Self.bytes(Self.photo)
        let path = try await Self.create(live, length: bytes.count)
        let wrong = "sha256 \(Data(repeating: 1, count: 32).base64EncodedString())"
        let refused = try await Self.patch(live, path, offset: 0, bytes, headers: ["Upload-Checksum": wrong])
        #expect(refused.status == 460 && refused.json["code"] as? String == "checksum_mismatch")
        #expect(try await live.request("HEAD", path, headers: Self.tus).header("Upload-Offset") == "0")

        let unknown = try await Self.patch(live, path, offset: 0, bytes, headers: ["Upload-Checksum": "md5 AAAA"])
        #expect(unknown.status == 400 && unknown.json["code"] as? String == "unsupported_checksum")

        let sha1 = try await Executable.run(program: "/usr/bin/sha1sum", [Corpus.path(Self.photo)]).stdout.prefix(40)
        let digest = Data(Hex.bytes(Array(sha1.utf8))!).base64EncodedString()
        let kept = try await Self.patch(live, path, offset: 0, bytes, headers: ["Upload-Checksum": "sha1 \(digest)"])
        #expect(kept.status == 204 && kept.header("X-Asset-ID") != nil)
    }

    @Test func malformedRequestsAreRefusedWithTheirCodes() async throws {
        let live = try LiveServer()
        let oldClient = try await live.request("POST", "/api/uploads", headers: ["Tus-Resumable": "0.2.2", "Upload-Length": "10"])
        #expect(oldClient.status == 412 && oldClient.header("Tus-Version") == "1.0.0")
        for length in ["-1", "ten", "1e3", "+10", "0x10"] {
            let reply = try await live.request("POST", "/api/uploads", headers: Self.tus.merging(["Upload-Length": length]) { $1 })
            #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_header", "Upload-Length \(length)")
        }
        let huge = try await live.request("POST", "/api/uploads", headers: Self.tus.merging(["Upload-Length": String(5 << 30)]) { $1 })
        #expect(huge.status == 413 && huge.json["code"] as? String == "too_large")
        for metadata in ["filename !!!", "filename YQ==,filename Yg==", "source Y2FtZXJh,album eA==", ",", "a b c"] {
            let reply = try await live.request(
                "POST", "/api/uploads", headers: Self.tus.merging(["Upload-Length": "10", "Upload-Metadata": metadata]) { $1 })
            #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_metadata", "Upload-Metadata \(metadata)")
        }

        let path = try await Self.create(live, length: 10)
        let untyped = try await live.request(
            "PATCH", path, body: Data(count: 10), headers: Self.tus.merging(["Upload-Offset": "0", "Content-Type": "image/jpeg"]) { $1 })
        #expect(untyped.status == 415)
        let past = try await Self.patch(live, path, offset: 0, Data(count: 11))
        #expect(past.status == 413)
        let unknown = try await live.request("HEAD", "/api/uploads/0123456789abcdef", headers: Self.tus)
        #expect(unknown.status == 404)
    }

    @Test func bytesTheLibraryRefusesSayWhyAndCancelledUploadsAreGone() async throws {
        let live = try LiveServer()
        let text = Data("not a photo at all, only words".utf8)
        let path = try await Self.create(live, length: text.count)
        let last = try await Self.patch(live, path, offset: 0, text)
        #expect(last.status == 415 && last.json["code"] as? String == "unsupported_type")
        let status = try await live.get(path)
        #expect(status.json["state"] as? String == "refused")
        #expect((status.json["error"] as? [String: Any])?["code"] as? String == "unsupported_type")

        let other = try await Self.create(live, length: 100)
        _ = try await Self.patch(live, other, offset: 0, Data(count: 40))
        #expect(try await live.request("DELETE", other, headers: Self.tus).status == 204)
        #expect(try await live.request("HEAD", other, headers: Self.tus).status == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: live.library.folder.uploads).isEmpty)
    }

    /// tus' headers are single fields: of two, a proxy and this server could each read another.
    @Test func aTusHeaderSentTwiceIsRefused() async throws {
        let live = try LiveServer(.socket)
        func send(_ head: String) async throws -> HTTPReply? {
            let request = head + "Host: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            return await (try await RawConnection.open(port: live.port, sending: Array(request.utf8))).readReply()
        }
        let tus = "Tus-Resumable: 1.0.0\r\n"
        let twice = try await send("POST /api/uploads HTTP/1.1\r\n\(tus)Upload-Length: 10\r\nUpload-Length: 11\r\n")
        #expect(twice?.status == 400 && twice?.text.contains("Upload-Length is sent 2 times") == true, "\(twice?.text ?? "")")
        let metadata = try await send(
            "POST /api/uploads HTTP/1.1\r\n\(tus)Upload-Length: 10\r\nUpload-Metadata: a\r\nUpload-Metadata: b\r\n")
        #expect(metadata?.status == 400)
        let versions = try await send("POST /api/uploads HTTP/1.1\r\n\(tus)\(tus)Upload-Length: 10\r\n")
        #expect(versions?.status == 412)
        let created = try await send("POST /api/uploads HTTP/1.1\r\n\(tus)Upload-Length: 10\r\n")
        let path = try #require(created?.headers["Location"])
        let offsets = try await send("PATCH \(path) HTTP/1.1\r\n\(tus)Upload-Offset: 0\r\nUpload-Offset: 0\r\n")
        #expect(offsets?.status == 400 && offsets?.text.contains("Upload-Offset is sent 2 times") == true)
    }

    @Test func aStrangerCannotOpenAnUpload() async throws {
        let directory = TemporaryDirectory("cameraroll-server")
        let live = try LiveServer(
            directory, library: try Library(folder: DataFolder(directory.path)),
            forwardedFor: ForwardedFor(proxies: [IPAddress("127.0.0.1")!]))
        let reply = try await live.request(
            "POST", "/api/uploads", headers: Self.tus.merging(["Upload-Length": "10", "X-Forwarded-For": "192.0.2.9"]) { $1 })
        #expect(reply.status == 401)
    }

    @Test func aRecordingStreamedWithoutALengthTellsItWithItsLastPiece() async throws {
        let live = try LiveServer()
        let bytes = try Self.bytes("videos/androidx-media__bear-vp9.webm")
        let created = try await live.request(
            "POST", "/api/uploads",
            headers: Self.tus.merging(["Upload-Defer-Length": "1", "Upload-Metadata": Self.metadata([("source", "camera")])]) { $1 })
        #expect(created.status == 201)
        let path = try #require(created.header("Location"))
        let both = try await live.request(
            "POST", "/api/uploads", headers: Self.tus.merging(["Upload-Defer-Length": "1", "Upload-Length": "9"]) { $1 })
        #expect(both.status == 400)

        let half = bytes.count / 2
        #expect(try await Self.patch(live, path, offset: 0, bytes.prefix(half)).status == 204)
        let head = try await live.request("HEAD", path, headers: Self.tus)
        #expect(head.header("Upload-Defer-Length") == "1" && head.header("Upload-Length") == nil)
        let last = try await Self.patch(live, path, offset: half, bytes.suffix(from: half), headers: ["Upload-Length": String(bytes.count)])
        #expect(last.status == 204)
        let id = try #require(last.header("X-Asset-ID"))
        #expect(try await live.get("/api/assets/\(id)").json["unsaved"] as? Bool == true)
    }
}
