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

    /// A conditional GET by one validator, or the other.
    struct Conditional: Sendable, CustomTestStringConvertible {
        let path: String
        /// Headers that each name what the response is.
        let met: [String]
        let unmet: String
        let whole: String
        /// The headers of the 304, nil where there is to be none.
        let kept: [String: String?]

        var testDescription: String { unmet }
    }

    @Test(arguments: [
        Conditional(
            path: "/digits",
            met: ["If-None-Match: \(etag)", "If-None-Match: \"x\", \"v1\"", "If-None-Match: W/\"v1\"", "If-None-Match: *"],
            unmet: "If-None-Match: \"v0\"", whole: "0123456789",
            kept: [
                "ETag": etag, "Cache-Control": "max-age=60", "Last-Modified": modified, "Content-Type": nil,
                "X-Content-Type-Options": "nosniff",
            ]),
        Conditional(
            path: "/dated", met: ["If-Modified-Since: \(modified)"], unmet: "If-Modified-Since: Thu, 01 Jan 2015 00:00:00 GMT",
            whole: "dated", kept: ["Last-Modified": modified]),
    ])
    func aMetConditionGets304WithValidatorsAndNoBody(_ conditional: Conditional) async throws {
        let live = try start()
        for header in conditional.met {
            let reply = try await live.get(conditional.path, headers: [header])
            #expect(reply.status == 304, "\(header)")
            #expect(reply.body.isEmpty)
            for (name, value) in conditional.kept { #expect(reply.headers[name] == value, "\(name)") }
        }
        let changed = try await live.get(conditional.path, headers: [conditional.unmet])
        #expect(changed.status == 200)
        #expect(changed.text == conditional.whole)
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
        try await live.expectFile("/photo", body: fileBytes, etag: "\"p1\"", range: 100_000...199_999)
        let tail = try await live.get("/photo", headers: ["Range: bytes=-10"])
        #expect(tail.body == Array(fileBytes.suffix(10)))
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

extension LiveServer {
    /// Expects `path` to answer as a file does: `body` whole, with its `etag` and an offer of
    /// ranges; nothing to a client that has that tag; and `range` alone. Returns the whole reply.
    @discardableResult
    func expectFile(
        _ path: String, body: [UInt8], etag: String, range: ClosedRange<Int>, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> HTTPReply {
        let whole = try await get(path)
        #expect(whole.status == 200, sourceLocation: sourceLocation)
        #expect(whole.body == body, sourceLocation: sourceLocation)
        #expect(whole.headers["ETag"] == etag, sourceLocation: sourceLocation)
        #expect(whole.headers["Accept-Ranges"] == "bytes", sourceLocation: sourceLocation)
        let notModified = try await get(path, headers: ["If-None-Match: \(etag)"])
        #expect(notModified.status == 304, sourceLocation: sourceLocation)
        #expect(notModified.body.isEmpty, sourceLocation: sourceLocation)
        let bytes = "\(range.lowerBound)-\(range.upperBound)"
        let part = try await get(path, headers: ["Range: bytes=\(bytes)"])
        #expect(part.status == 206, sourceLocation: sourceLocation)
        #expect(part.body == Array(body[range]), sourceLocation: sourceLocation)
        #expect(part.headers["Content-Range"] == "bytes \(bytes)/\(body.count)", sourceLocation: sourceLocation)
        return whole
    }
}
