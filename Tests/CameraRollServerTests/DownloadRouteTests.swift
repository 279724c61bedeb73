import CameraRollServer
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import PhotoLibrary

/// `POST /api/downloads` and the archive `GET /api/downloads/<token>` streams, read by readers
/// that are not ours (Python's zipfile and Info-ZIP's unzip, through Tests/support/check_zip.py):
/// every original byte for byte under its own name, on SQLite and across a cluster's servers
/// (PostgreSQL and S3); what is refused; a client that hangs up; ZIP64's records.
@Suite(.serialized) struct DownloadRouteTests {
    static let checker = Corpus.packageRoot.appendingPathComponent("Tests/support/check_zip.py").path

    /// What check_zip.py said of `archive`, which must hold `files` (corpus paths) in order under
    /// `names` (by default their own), with `times` ([y, m, d, H, M, S]) where one is given.
    static func check(_ archive: Data, holds files: [String], names: [String]? = nil, times: [[Int]?] = []) async throws
        -> Executable.Output
    {
        let folder = TemporaryDirectory("download")
        try archive.write(to: URL(fileURLWithPath: folder.file("archive.zip")))
        let corpus = Corpus.entries()
        let expected = files.enumerated().map { index, file -> [String: Any] in
            var entry: [String: Any] = [
                "name": names?[index] ?? (file as NSString).lastPathComponent,
                "size": (try? FileManager.default.attributesOfItem(atPath: Corpus.path(file))[.size] as? Int) ?? -1,
                "sha256": corpus[file]?.sha256 ?? "unknown",
            ]
            if index < times.count, let time = times[index] { entry["date_time"] = time }
            return entry
        }
        return try await Executable.run(
            program: "/usr/bin/python3", [checker, folder.file("archive.zip")], input: try JSONSerialization.data(withJSONObject: expected))
    }

    static func ids(_ replies: [LiveServer.Reply]) throws -> [String] {
        try replies.map { try #require($0.json["id"] as? String) }
    }

    static func selection(_ ids: [String]) throws -> Data {
        try JSONEncoder().encode(["ids": ids])
    }

    /// Photos, a Live Photo (its movie comes as a second file), a movie, and two photos uploaded
    /// under one name.
    @Test func aSelectionDownloadsAsAZipOfItsOriginals() async throws {
        let live = try LiveServer(.socket)
        let files = [
            "photos/exifsamples__Canon_40D.jpg", "photos/lychee__train.jpg", "videos/lychee__train.mov",
            "videos/androidx-media__sample.mp4",
        ]
        var uploaded = try Self.ids([
            try await live.upload(files[0]), try await live.upload(files[1]), try await live.upload(files[2]),
            try await live.upload(files[3]),
        ])
        #expect(try await live.get("/api/assets/\(uploaded[0])").json["captureDate"] as? String == "2008-05-30T15:56:01")
        let twins = ["photos/exifsamples__Nikon_D70.jpg", "photos/exifsamples__Pentax_K10D.jpg"]
        for file in twins {
            let reply = try await live.request(
                "POST", "/api/assets", body: try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))),
                headers: ["X-Filename": "IMG_0001.JPG"])
            uploaded.append(try #require(reply.json["id"] as? String))
        }
        let selected = [uploaded[3], uploaded[0], uploaded[1], uploaded[4], uploaded[5]]

        let created = try await live.request("POST", "/api/downloads", body: try Self.selection(selected))
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let url = try #require(created.json["url"] as? String)
        let filename = try #require(created.json["filename"] as? String)
        #expect(url.wholeMatch(of: /\/api\/downloads\/[0-9a-f]{32}/) != nil)
        #expect(created.header("Location") == url)
        #expect(filename.wholeMatch(of: /CameraRoll \d{4}-\d{2}-\d{2}\.zip/) != nil)
        #expect(created.json["count"] as? Int == 5 && created.json["files"] as? Int == 6)

        let archive = try await live.get(url)
        #expect(archive.status == 200)
        #expect(archive.header("Content-Type") == "application/zip")
        #expect(
            archive.header("Content-Disposition")
                == "attachment; filename=\"\(filename)\"; filename*=UTF-8''\(filename.replacingOccurrences(of: " ", with: "%20"))")
        #expect(archive.header("Cache-Control") == "no-store")
        #expect(archive.header("Content-Length") == String(archive.body.count))
        #expect(created.json["size"] as? Int == archive.body.count)
        let checked = try await Self.check(
            archive.body, holds: [files[3], files[0], files[1], files[2]] + twins,
            names: [
                "androidx-media__sample.mp4", "exifsamples__Canon_40D.jpg", "lychee__train.jpg", "lychee__train.mov", "IMG_0001.JPG",
                "IMG_0001 (2).JPG",
            ],
            times: [nil, [2008, 5, 30, 15, 56, 0]])
        #expect(checked.status == 0, "\(checked.stderr)")

        let head = try await live.request("HEAD", url)
        #expect(head.status == 200 && head.header("Content-Length") == String(archive.body.count) && head.body.isEmpty)
        #expect(try await eventually(seconds: 60) { try #require(live.server).requestsInFlight == 0 })
    }

    /// A name a client gives is kept as a name (the last part of a path, never `.` or `..`), and
    /// goes back out as a file any desktop opens as what it is, in the archive and alone.
    @Test func namesClientsGiveAreKeptAsNamesAndComeBackSafeOnEveryDesktop() async throws {
        let live = try LiveServer()
        let photos = ["exifsamples__Canon_40D.jpg", "exifsamples__Nikon_D70.jpg", "exifsamples__Pentax_K10D.jpg", "lychee__train.jpg"]
        let given = ["..", "C:\\Users\\ann\\beach.jpg", "nul", "photo\u{202E}gpj.exe"]
        var ids: [String] = []
        for (photo, name) in zip(photos, given) {
            let reply = try await live.upload(
                "photos/\(photo)", headers: ["X-Filename": name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!])
            ids.append(try #require(reply.json["id"] as? String))
        }
        var kept: [String?] = []
        for id in ids { kept.append(try await live.get("/api/assets/\(id)").json["originalFilename"] as? String) }
        #expect(kept == [nil, "beach.jpg", "nul", "photogpj.exe"])
        let original = try await live.get("/media/\(ids[2])/original")
        #expect(original.header("Content-Disposition")?.hasPrefix("attachment; filename=\"_nul.jpg\"") == true)
        let created = try await live.request("POST", "/api/downloads", body: try Self.selection(ids))
        let archive = try await live.get(try #require(created.json["url"] as? String))
        let checked = try await Self.check(
            archive.body, holds: photos.map { "photos/\($0)" }, names: ["\(ids[0]).jpg", "beach.jpg", "_nul.jpg", "photogpj.exe.jpg"])
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    @Test func whatCannotBeDownloadedIsRefused() async throws {
        let live = try LiveServer()
        let ids = try Self.ids([
            try await live.upload("photos/exifsamples__Canon_40D.jpg"), try await live.upload("photos/exifsamples__Nikon_D70.jpg"),
        ])
        #expect(try await live.request("DELETE", "/api/assets/\(ids[1])").status == 200)
        func refusal(_ body: String) async throws -> (Int, String?) {
            let reply = try await live.request("POST", "/api/downloads", body: Data(body.utf8))
            return (reply.status, reply.json["code"] as? String)
        }
        #expect(try await refusal("ids") == (400, "invalid_json"))
        #expect(try await refusal(#"{"ids": "\#(ids[0])"}"#) == (400, "invalid_json"))
        #expect(try await refusal(#"{"ids": []}"#) == (400, "invalid_request"))
        #expect(try await refusal(#"{"ids": ["\#(ids[0])", "\#(ids[0])"]}"#) == (400, "invalid_request"))
        #expect(try await refusal(#"{"ids": ["\#(ids[0])", "\#(ids[1])"]}"#) == (404, "not_found"), "in the trash")
        #expect(try await refusal(#"{"ids": ["\#(ids[0])", "nothing"]}"#) == (404, "not_found"))
        let unknown = try await live.get("/api/downloads/0123456789abcdef0123456789abcdef")
        #expect(unknown.status == 404 && unknown.json["code"] as? String == "not_found")
        #expect(unknown.header("Content-Type") == "application/json; charset=utf-8")
        let expired = try await live.library.downloads.createDownload(
            of: [ids[0]], owner: .first, now: Date().addingTimeInterval(-Library.downloadLifetime))
        #expect(try await live.get("/api/downloads/\(expired.token)").status == 404)
        let lasting = try await live.library.downloads.createDownload(
            of: [ids[0]], owner: .first, now: Date().addingTimeInterval(-Library.downloadLifetime + 60))
        #expect(try await live.get("/api/downloads/\(lasting.token)").status == 200)
    }

    /// Downloads are the owner's, as the rest of the API: someone else gets no archive, and
    /// cannot make one.
    @Test func onlyTheOwnerDownloads() async throws {
        let live = try LiveServer()
        let router = live.app.router
        let gate = try #require(router.gate)
        for (method, path) in [("POST", "/api/downloads"), ("GET", "/api/downloads/0123456789abcdef0123456789abcdef")] {
            guard case .found(let route, let parameters) = router.match(method: method, path: path) else {
                Issue.record("no route for \(method) \(path)")
                continue
            }
            let request = Request(
                method: method, path: path, headers: Headers([("Host", "192.168.1.5:8443")]), remoteAddress: "192.168.1.7",
                parameters: parameters)
            #expect(gate(request, route)?.status == 401, "\(method) \(path)")
        }
    }

    /// A client that takes the first 100 kB of a 20 MB archive and hangs up leaves nothing running:
    /// the producer, waiting for the client or reading the next chunk, learns it at its next write.
    @Test func aClientThatHangsUpLeavesNothingRunning() async throws {
        let live = try LiveServer(.socket)
        var ids: [String] = []
        for file in [
            "photos/lychee__train.jpg", "photos/pigallery2__IMG_0307.HEIC", "photos/exifsamples__HMD_Nokia_8.3_5G.heif",
            "videos/androidx-media__pixel7_videoOnly_cleaned.mp4", "videos/ts-ebml__firefox53.webm",
            "videos/androidx-media__mv_with_2_top_shots.mp4",
        ] {
            ids.append(try await live.library.ingest.importFile(at: Corpus.path(file), owner: .first).asset.id)
        }
        let download = try await live.library.downloads.createDownload(of: ids, owner: .first)
        #expect(download.size > 19_000_000)
        let taken = try await Executable.run(
            program: "/bin/sh",
            ["-c", "curl -s http://127.0.0.1:\(live.port)/api/downloads/\(download.token) | head -c 100000 | wc -c"])
        #expect(taken.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "100000")
        #expect(try await eventually(seconds: 60) { try #require(live.server).requestsInFlight == 0 })
    }

    /// An archive whose every record is ZIP64's (as a selection past 4 GiB has them), written by
    /// the library's writer and read back by zipfile and unzip.
    @Test func anArchiveWithZIP64RecordsReadsBack() async throws {
        let live = try LiveServer()
        let files = ["photos/exifsamples__Canon_40D.jpg", "photos/lychee__train.jpg", "videos/androidx-media__sample.mp4"]
        var assets: [Asset] = []
        for file in files { assets.append(try await live.library.ingest.importFile(at: Corpus.path(file), owner: .first).asset) }
        let originals = assets.map { Download.File(asset: $0, copy: nil) }
        let download = Download(
            token: "", filename: "", files: originals, layout: ZipLayout(Download.entries(originals), zip64Threshold: 0))
        var bytes: [UInt8] = []
        try await live.library.downloads.write(download) { chunk in
            bytes += chunk
            return true
        }
        #expect(bytes.count == download.size)
        #expect(download.size == ZipLayout(Download.entries(originals)).size + 3 * (20 + 8 + 28) + 56 + 20, "every ZIP64 field there is")
        let checked = try await Self.check(Data(bytes), holds: files)
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// Servers share the library's database and bucket: a download asked for on one is sent by
    /// another, its originals fetched from the bucket.
    @Test func anotherServerOfTheLibrarySendsTheArchive() async throws {
        let cluster = try await TwoServersTests.Cluster()
        let files = ["photos/exifsamples__Canon_40D.jpg", "videos/androidx-media__sample.mp4"]
        var ids: [String] = []
        for file in files { ids.append(try #require(try await cluster.first.upload(file, headers: cluster.owner).json["id"] as? String)) }
        let created = try await cluster.first.request("POST", "/api/downloads", body: try Self.selection(ids), headers: cluster.owner)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let archive = try await cluster.second.request("GET", try #require(created.json["url"] as? String), headers: cluster.owner)
        #expect(archive.status == 200 && archive.body.count == created.json["size"] as? Int)
        let checked = try await Self.check(archive.body, holds: files)
        #expect(checked.status == 0, "\(checked.stderr)")
    }
}
