import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// How long resumable uploads live and how many a client may hold, on a real server: the quota
/// of open uploads, the default expiry a day after the last piece, and termination of a stream
/// the server finished by itself, which takes the capture nobody saved with it.
@Suite struct UploadLifetimeRouteTests {
    typealias Route = ResumableUploadRouteTests
    static let recording = "videos/androidx-media__bear-vp9.webm"

    @Test func aClientPastItsQuotaOfOpenUploadsIs429UntilOneEnds() async throws {
        var options = Library.Options()
        options.openUploadsPerClient = 2
        let directory = TemporaryDirectory("cameraroll-server")
        let live = try LiveServer(directory, library: try Library(folder: DataFolder(directory.path), options: options))
        let first = try await Route.create(live, length: 10)
        _ = try await Route.create(live, length: 10)
        let refused = try await live.request("POST", "/api/uploads", headers: Route.tus.merging(["Upload-Length": "10"]) { $1 })
        #expect(refused.status == 429 && refused.json["code"] as? String == "too_many_uploads")
        #expect(refused.header("Tus-Resumable") == "1.0.0")
        #expect(try await live.request("DELETE", first, headers: Route.tus).status == 204)
        _ = try await Route.create(live, length: 10)
    }

    @Test func anUploadExpiresADayAfterItsLastPieceByDefault() async throws {
        #expect(Library.Options().uploadExpiry == 24 * 3600)
        let live = try LiveServer()
        let bytes = try Route.bytes(Route.photo)
        // Between the moments before and after the upload was made, whatever a loaded suite
        // made the request wait (HTTP dates are whole seconds).
        let before = Date()
        let path = try await Route.create(live, length: bytes.count)
        let after = Date()
        let head = try await live.request("HEAD", path, headers: Route.tus)
        let expires = try #require(head.header("Upload-Expires").flatMap(Self.httpDate))
        #expect(
            expires.timeIntervalSince(before) > 24 * 3600 - 1 && expires.timeIntervalSince(after) < 24 * 3600 + 1,
            "\(before) \(expires) \(after)")
        let status = try await live.get(path)
        let stated = try #require((status.json["expires"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
        #expect(abs(stated.timeIntervalSince(expires)) < 1)
    }

    @Test func terminatingAStreamTheServerFinishedDeletesTheCaptureNobodySaved() async throws {
        let live = try LiveServer()
        let discarded = try await finishedStream(live)
        let dropped = try await live.request("DELETE", discarded.path, headers: Route.tus)
        #expect(dropped.status == 204)
        #expect(try await live.get("/api/assets/\(discarded.asset)").status == 404)

        let kept = try await finishedStream(live)
        _ = try await live.library.catalog.saveToCameraRoll(kept.asset, owner: .first)
        #expect(try await live.request("DELETE", kept.path, headers: Route.tus).status == 204)
        #expect(try await live.get("/api/assets/\(kept.asset)").json["inCameraRoll"] as? Bool == true, "a saved capture stays")

        let bytes = try Route.bytes(Route.photo)
        let upload = try await Route.create(live, length: bytes.count)
        let asset = try #require(try await Route.patch(live, upload, offset: 0, bytes).header("X-Asset-ID"))
        #expect(try await live.request("DELETE", upload, headers: Route.tus).status == 204)
        #expect(try await live.get("/api/assets/\(asset)").status == 200, "a file uploaded to the library stays")
    }

    /// A camera stream that got a recording's bytes and then nothing, finished by the server as
    /// its idle sweep does; its path and the asset it became.
    private func finishedStream(_ live: LiveServer) async throws -> (path: String, asset: String) {
        let created = try await live.request(
            "POST", "/api/uploads",
            headers: Route.tus.merging(["Upload-Defer-Length": "1", "Upload-Metadata": Route.metadata([("source", "camera")])]) { $1 })
        let path = try #require(created.header("Location"))
        #expect(try await Route.patch(live, path, offset: 0, try Route.bytes(Self.recording)).status == 204)
        #expect(try await live.library.uploads.finishAbandonedStreams(idle: 1, now: Date().addingTimeInterval(2)) == 1)
        let asset = try #require(try await live.get(path).json["assetID"] as? String)
        #expect(try await live.get("/api/assets/\(asset)").json["unsaved"] as? Bool == true)
        return (path, asset)
    }

    private static func httpDate(_ text: String) -> Date? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format.date(from: text)
    }
}
