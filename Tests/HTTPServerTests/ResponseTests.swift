import Foundation
import HTTPServer
import TestSupport
import Testing

@Suite struct ResponseTests {
    static let etag = "\"v1\""
    static let modified = "Wed, 21 Oct 2015 07:28:00 GMT"
    let folder = TemporaryDirectory("http-files")
    let fileBytes: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    func start() throws -> LiveServer {
        #expect(FileManager.default.createFile(atPath: folder.file("photo.bin"), contents: Data(fileBytes)))
        var router = Router()
        router.get("/digits") { _ in
            var response = Response.bytes(Array("0123456789".utf8), contentType: "text/plain")
            response.headers["ETag"] = Self.etag
            response.headers["Last-Modified"] = Self.modified
            response.headers["Cache-Control"] = "max-age=60"
            return response
        }
        router.get("/dated") { _ in
            var response = Response.text("dated")
            response.headers["Last-Modified"] = Self.modified
            return response
        }
        let path = folder.file("photo.bin")
        router.get("/photo") { _ in .file(path, contentType: "application/octet-stream", etag: "\"p1\"") }
        router.get("/part") { _ in .file(path, range: 250_000..<290_000, contentType: "application/octet-stream", etag: "\"q1\"") }
        router.get("/past-the-end") { _ in .file(path, range: 299_000..<300_001, contentType: "application/octet-stream") }
        let missing = folder.file("gone.bin")
        router.get("/gone") { _ in .file(missing, contentType: "application/octet-stream") }
        return try LiveServer(router: router)
    }

    @Test func headHasGETsHeadersAndLengthButNoBody() async throws {
        let live = try start()
        let head = try await live.request("HEAD", "/digits")
        let get = try await live.get("/digits")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == "10")
        #expect(head.headers["ETag"] == Self.etag)
        #expect(head.headers["Content-Type"] == get.headers["Content-Type"])
        #expect(head.headers["X-Content-Type-Options"] == "nosniff")
        let headFile = try await live.request("HEAD", "/photo")
        #expect(headFile.headers["Content-Length"] == "\(fileBytes.count)")
        #expect(headFile.body.isEmpty)
        await live.stop()
    }

    @Test func matchingETagGets304WithValidatorsAndNoBody() async throws {
        let live = try start()
        for tag in [Self.etag, "\"x\", \"v1\"", "W/\"v1\"", "*"] {
            let reply = try await live.get("/digits", headers: ["If-None-Match: \(tag)"])
            #expect(reply.status == 304, "If-None-Match: \(tag)")
            #expect(reply.body.isEmpty)
            #expect(reply.headers["ETag"] == Self.etag)
            #expect(reply.headers["Cache-Control"] == "max-age=60")
            #expect(reply.headers["Last-Modified"] == Self.modified)
            #expect(reply.headers["Content-Type"] == nil)
            #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        }
        let changed = try await live.get("/digits", headers: ["If-None-Match: \"v0\""])
        #expect(changed.status == 200)
        #expect(changed.text == "0123456789")
        await live.stop()
    }

    @Test func matchingLastModifiedGets304() async throws {
        let live = try start()
        let same = try await live.get("/dated", headers: ["If-Modified-Since: \(Self.modified)"])
        #expect(same.status == 304)
        #expect(same.body.isEmpty)
        #expect(same.headers["Last-Modified"] == Self.modified)
        let other = try await live.get("/dated", headers: ["If-Modified-Since: Thu, 01 Jan 2015 00:00:00 GMT"])
        #expect(other.status == 200)
        #expect(other.text == "dated")
        await live.stop()
    }

    @Test func singleRangesGet206WithExactlyThoseBytes() async throws {
        let live = try start()
        for (range, bytes, contentRange) in [
            ("bytes=2-5", "2345", "bytes 2-5/10"), ("bytes=-3", "789", "bytes 7-9/10"), ("bytes=7-", "789", "bytes 7-9/10"),
            ("bytes=8-100", "89", "bytes 8-9/10"),
        ] {
            let reply = try await live.get("/digits", headers: ["Range: \(range)"])
            #expect(reply.status == 206, "\(range)")
            #expect(reply.text == bytes)
            #expect(reply.headers["Content-Range"] == contentRange)
            #expect(reply.headers["Content-Length"] == "\(bytes.count)")
            #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        }
        await live.stop()
    }

    @Test func rangesOutsideTheBodyGet416() async throws {
        let live = try start()
        for range in ["bytes=10-", "bytes=5-2", "bytes=-0"] {
            let reply = try await live.get("/digits", headers: ["Range: \(range)"])
            #expect(reply.status == 416, "\(range)")
            #expect(reply.headers["Content-Range"] == "bytes */10")
            #expect(reply.text.hasPrefix(#"{"code":"range_not_satisfiable""#))
            #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        }
        await live.stop()
    }

    @Test func severalRangesOrAStaleIfRangeGetTheWholeBody() async throws {
        let live = try start()
        for headers in [["Range: bytes=0-1,5-6"], ["Range: bytes=zero-one"], ["Range: bytes=2-5", "If-Range: \"v0\""]] {
            let reply = try await live.get("/digits", headers: headers)
            #expect(reply.status == 200, "\(headers)")
            #expect(reply.text == "0123456789")
            #expect(reply.headers["Accept-Ranges"] == "bytes")
        }
        let current = try await live.get("/digits", headers: ["Range: bytes=2-5", "If-Range: \(Self.etag)"])
        #expect(current.status == 206)
        #expect(current.text == "2345")
        await live.stop()
    }

    @Test func filesAreSentWholeAndInRanges() async throws {
        let live = try start()
        let whole = try await live.get("/photo")
        #expect(whole.status == 200)
        #expect(whole.body == fileBytes)
        #expect(whole.headers["Accept-Ranges"] == "bytes")
        #expect(whole.headers["ETag"] == "\"p1\"")
        let middle = try await live.get("/photo", headers: ["Range: bytes=100000-199999"])
        #expect(middle.status == 206)
        #expect(middle.body == Array(fileBytes[100_000..<200_000]))
        #expect(middle.headers["Content-Range"] == "bytes 100000-199999/\(fileBytes.count)")
        let tail = try await live.get("/photo", headers: ["Range: bytes=-10"])
        #expect(tail.body == Array(fileBytes.suffix(10)))
        let notModified = try await live.get("/photo", headers: ["If-None-Match: \"p1\""])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        await live.stop()
    }

    /// A part of a file is answered as if it were the whole, small enough to go out with the
    /// headers (40 KB) or not; ranges are of the part.
    @Test func aPartOfAFileIsSentAsAWholeAndInRanges() async throws {
        let live = try start()
        let part = Array(fileBytes[250_000..<290_000])
        let whole = try await live.get("/part")
        #expect(whole.status == 200)
        #expect(whole.body == part)
        #expect(whole.headers["Content-Length"] == "40000")
        let middle = try await live.get("/part", headers: ["Range: bytes=100-199"])
        #expect(middle.status == 206)
        #expect(middle.body == Array(part[100..<200]))
        #expect(middle.headers["Content-Range"] == "bytes 100-199/40000")
        let tail = try await live.get("/part", headers: ["Range: bytes=-5"])
        #expect(tail.body == Array(part.suffix(5)))
        #expect(try await live.request("HEAD", "/part").headers["Content-Length"] == "40000")
        let tooShort = try await live.get("/past-the-end")
        #expect(tooShort.status == 404, "a file shorter than its part is answered as a missing one")
        await live.stop()
    }

    @Test func aFileMissingWhenQueuedIsA404() async throws {
        let live = try start()
        let reply = try await live.get("/gone")
        #expect(reply.status == 404)
        #expect(reply.text == #"{"code":"not_found","message":"There is nothing here."}"#)
        #expect(reply.headers["X-Content-Type-Options"] == "nosniff")
        await live.stop()
    }
}
