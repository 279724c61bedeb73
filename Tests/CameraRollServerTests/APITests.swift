import Foundation
import Imaging
import PhotoLibrary
import TestSupport
import Testing
import Vocabulary

/// Serialized: each case starts a server, and some 180 at once exhausted the test process's file
/// descriptors.
@Suite(.serialized) struct APITests {
    @Test func healthAndCapabilities() async throws {
        let live = try LiveServer()
        #expect(try await live.get("/healthz").status == 200)
        let capabilities = try await live.get("/api/capabilities")
        #expect(capabilities.status == 200)
        let sources = capabilities.json["sources"] as? [String: Any]
        #expect(Set(sources?.keys.map { $0 } ?? []) == ["photoLibrary", "savedPhotosAlbum"])
        #expect((capabilities.json["imageFormats"] as? [String])?.contains("image/heif") == true)
    }

    @Test func uploadsAreStoredOnceAndDescribed() async throws {
        let live = try LiveServer()
        let first = try await live.upload("photos/recurser__Portrait_6.jpg")
        #expect(first.status == 201)
        let asset = first.json
        #expect(asset["mediaType"] as? String == "public.image")
        #expect(asset["width"] as? Int == 1200 && asset["height"] as? Int == 1800)
        #expect(asset["originalFilename"] as? String == "recurser__Portrait_6.jpg")
        #expect(first.header("Location") == "/api/assets/\(asset["id"] as? String ?? "")")
        let again = try await live.upload("photos/recurser__Portrait_6.jpg")
        #expect(again.status == 200)
        #expect(again.json["id"] as? String == asset["id"] as? String)

        let id = try #require(asset["id"] as? String)
        let original = try await live.get("/media/\(id)/original")
        #expect(original.status == 200)
        #expect(original.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/recurser__Portrait_6.jpg")))))
        #expect(original.header("Content-Disposition")?.hasPrefix("attachment;") == true)
        #expect(original.header("X-Content-Type-Options") == "nosniff")
        #expect(original.header("Content-Type") == "image/jpeg")
    }

    @Test(
        arguments: Corpus.files(in: "photos").filter { Corpus.entries()[$0]?.vipsFullDecode.hasPrefix("ok") ?? false }
            + Corpus.files(in: "videos"))
    func everyCorpusFileUploads(file: String) async throws {
        let live = try LiveServer()
        let reply = try await live.upload(file)
        #expect(reply.status == 201, "\(file): \(String(decoding: reply.body, as: UTF8.self))")
        let id = try #require(reply.json["id"] as? String)
        let thumbnail = try await live.get("/media/\(id)/thumbnail?size=256")
        #expect(thumbnail.status == 200 && thumbnail.header("Content-Type") == "image/webp")
    }

    /// The book's shrinkImage, through the API: exactly what fits w×dpr by h×dpr, never upscaled.
    @Test(arguments: [
        "photos/recurser__Landscape_6.jpg", "photos/recurser__Portrait_8.jpg", "photos/exifsamples__HMD_Nokia_8.3_5G.heif",
        "videos/androidx-media__portrait_4k60.mp4",
    ])
    func displaySizesAreExact(file: String) async throws {
        let live = try LiveServer()
        let asset = try await live.upload(file).json
        let id = try #require(asset["id"] as? String)
        let size = PixelSize(width: try #require(asset["width"] as? Int), height: try #require(asset["height"] as? Int))
        let imaging = try Imaging()
        for (w, h, dpr, fit) in [
            (375, 667, "2", Fit.contain), (1024, 768, "1", .contain), (320, 320, "3", .cover), (200, 900, "1.5", .contain),
            (4000, 4000, "2", .contain),
        ] {
            let reply = try await live.get("/media/\(id)/display?w=\(w)&h=\(h)&dpr=\(dpr)&fit=\(fit.rawValue)")
            #expect(reply.status == 200)
            let scale = Double(dpr)!
            let box = PixelSize(width: Int((Double(w) * scale).rounded()), height: Int((Double(h) * scale).rounded()))
            let expected = FitGeometry.outputSize(of: size, in: box, fit: fit)
            let file = live.directory.file("display-\(w)-\(h)")
            try reply.body.write(to: URL(fileURLWithPath: file))
            #expect(try imaging.probe(file).size == expected, "\(file) \(w)x\(h)@\(dpr) \(fit)")
        }
    }

    @Test(arguments: Corpus.files(in: "bad"))
    func badFilesGetAJSONErrorAndTheServerStaysUp(file: String) async throws {
        let live = try LiveServer()
        let reply = try await live.upload(file)
        if reply.status >= 400 {
            #expect((400..<500).contains(reply.status), "\(file): \(reply.status)")
            let code = try #require(reply.json["code"] as? String)
            #expect(!code.isEmpty)
            #expect((reply.json["message"] as? String)?.contains("/") == false)
            #expect(try await live.library.catalog.count(.photoLibrary, owner: .first) == 0)
        } else {
            #expect(reply.status == 201)
        }
        #expect(try await live.get("/healthz").status == 200)
    }

    @Test func listingFiltersAndPages() async throws {
        let live = try LiveServer()
        for file in [
            "photos/exifsamples__Canon_40D.jpg", "photos/exifsamples__Nikon_D70.jpg", "photos/exifsamples__Pentax_K10D.jpg",
            "videos/androidx-media__sample.mp4",
        ] {
            _ = try await live.upload(file)
        }
        let all = try await live.get("/api/assets")
        #expect((all.json["assets"] as? [Any])?.count == 4)
        let movies = try await live.get("/api/assets?mediaTypes=public.movie")
        #expect((movies.json["assets"] as? [[String: Any]])?.map { $0["mediaType"] as? String } == ["public.movie"])
        let first = try await live.get("/api/assets?limit=3")
        #expect((first.json["assets"] as? [Any])?.count == 3)
        let cursor = try #require(first.json["nextCursor"] as? String)
        let second = try await live.get("/api/assets?limit=3&cursor=\(cursor)")
        #expect((second.json["assets"] as? [Any])?.count == 1)
        #expect(second.json["nextCursor"] == nil || second.json["nextCursor"] is NSNull)
        for bad in [
            "/api/assets?limit=0", "/api/assets?source=everything", "/api/assets?mediaTypes=public.text", "/api/assets?cursor=nonsense",
        ] {
            let reply = try await live.get(bad)
            #expect(reply.status == 400, "\(bad)")
            #expect(reply.json["code"] != nil)
        }
    }

    @Test func cameraCapturesAreSavedToTheCameraRollExplicitly() async throws {
        let live = try LiveServer()
        let capture = try await live.upload("photos/exifsamples__Canon_40D.jpg", query: "?source=camera").json
        #expect(capture["unsaved"] as? Bool == true)
        #expect((try await live.get("/api/assets").json["assets"] as? [Any])?.isEmpty == true)
        let id = try #require(capture["id"] as? String)
        let saved = try await live.request("POST", "/api/assets/\(id)/albums/cameraRoll")
        #expect(saved.status == 200 && saved.json["inCameraRoll"] as? Bool == true)
        let roll = try await live.get("/api/assets?source=savedPhotosAlbum")
        #expect((roll.json["assets"] as? [[String: Any]])?.first?["id"] as? String == id)
        let direct = try await live.upload("photos/exifsamples__Nikon_D70.jpg", query: "?source=camera&album=cameraRoll").json
        #expect(direct["inCameraRoll"] as? Bool == true)
        #expect(try await live.request("POST", "/api/assets/\(id)/albums/holidays").status == 404)
    }

    @Test func editsAreValidatedStoredAndRendered() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let crop = Data(#"{"cropRect":{"x":600,"y":200,"width":600,"height":600}}"#.utf8)
        let stored = try await live.request("PUT", "/api/assets/\(id)/edit", body: crop, headers: ["Content-Type": "application/json"])
        #expect(stored.status == 200)
        #expect(((stored.json["edit"] as? [String: Any])?["cropRect"] as? [String: Int])?["width"] == 600)
        let fetched = try await live.get("/api/assets/\(id)")
        #expect((fetched.json["edit"] as? [String: Any])?["cropRect"] != nil)

        let edited = try await live.get("/media/\(id)/edited?w=200&h=100&dpr=2")
        let file = live.directory.file("edited.jpg")
        try edited.body.write(to: URL(fileURLWithPath: file))
        #expect(try Imaging().probe(file).size == PixelSize(width: 200, height: 200))

        for (body, field) in [
            (#"{"cropRect":{"x":1700,"y":0,"width":600,"height":600}}"#, "cropRect"),
            (#"{"cropRect":{"x":"a","y":0,"width":6,"height":6}}"#, "cropRect.x"),
            (#"{"trim":{"start":0,"end":1}}"#, "trim"),
            (#"{"rotate":90}"#, "rotate"),
            ("not json", ""),
        ] {
            let reply = try await live.request("PUT", "/api/assets/\(id)/edit", body: Data(body.utf8))
            #expect(reply.status == 400, "\(body)")
            #expect((reply.json["message"] as? String)?.hasPrefix(field) == true, "\(body): \(reply.json)")
        }
        let original = try await live.get("/media/\(id)/original")
        #expect(original.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/recurser__Landscape_1.jpg")))))
    }

    @Test func deleteMovesToTheTrash() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("photos/exifsamples__Canon_40D.jpg").json["id"] as? String)
        let deleted = try await live.request("DELETE", "/api/assets/\(id)")
        #expect(deleted.status == 200 && deleted.json["trashed"] as? Bool == true)
        #expect((try await live.get("/api/assets").json["assets"] as? [Any])?.isEmpty == true)
        #expect(try await live.get("/api/assets/nope").status == 404)
        #expect(try await live.request("DELETE", "/api/assets/nope").status == 404)
    }

    @Test func mediaIsCacheableAndConditional() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("photos/exifsamples__Canon_40D.jpg").json["id"] as? String)
        let thumbnail = try await live.get("/media/\(id)/thumbnail?size=512")
        let etag = try #require(thumbnail.header("ETag"))
        #expect(thumbnail.header("Cache-Control")?.contains("immutable") == true)
        let again = try await live.get("/media/\(id)/thumbnail?size=512", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        #expect(try await live.get("/media/\(id)/thumbnail?size=300").status == 400)
        #expect(try await live.get("/media/\(id)/display?w=0&h=10").status == 400)
        #expect(try await live.get("/media/\(id)/display?w=10&h=10&dpr=abc").status == 400)
    }

    @Test func playableVideoIsServedWithRanges() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("videos/androidx-media__sample.mp4").json["id"] as? String)
        let video = try await live.get("/media/\(id)/video")
        #expect(video.status == 200 && video.header("Content-Type") == "video/mp4")
        #expect(video.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("videos/androidx-media__sample.mp4")))))
        let part = try await live.get("/media/\(id)/video", headers: ["Range": "bytes=100-199"])
        #expect(part.status == 206 && part.body == video.body[100..<200])
    }

    @Test func unplayableVideoGetsARenditionThatFFprobeAccepts() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("videos/photoprism__quicktime-hvc1.mov").json["id"] as? String)
        var reply = try await live.get("/media/\(id)/video")
        var polls = 0
        while reply.status == 202 && polls < 600 {
            #expect(reply.json["status"] as? String == "pending")
            try await Task.sleep(for: .milliseconds(200))
            let status = try await live.get("/api/assets/\(id)/rendition")
            if status.json["status"] as? String == "ready" { reply = try await live.get("/media/\(id)/video") }
            polls += 1
        }
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "video/mp4")
        let file = live.directory.file("rendition.mp4")
        try reply.body.write(to: URL(fileURLWithPath: file))
        let codec = try await Executable.run(
            program: "/usr/bin/ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", file]
        ).stdout
        #expect(codec.trimmingCharacters(in: .whitespacesAndNewlines) == "h264")
    }
}
