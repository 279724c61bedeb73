import Credentials
import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Links for people without an account, through the live server: what a link shows and nothing
/// else, its password, its end (revoked, expired), and, with `removeLocation`, no location that
/// exiftool finds in anything it serves.
@Suite(.serialized) struct ShareLinkTests {
    let live: LiveServer

    init() throws { live = try LiveServer() }

    func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    func upload(_ file: String) async throws -> String {
        try #require(try await live.upload(file).json["id"] as? String, "\(file)")
    }

    /// A link made by the owner (this computer): its reply, whose `url` is `/s/<token>`.
    func link(_ fields: [String: Any]) async throws -> (id: String, token: String) {
        let made = try await live.request("POST", "/api/shares", body: try json(fields))
        #expect(made.status == 201, "\(String(decoding: made.body, as: UTF8.self))")
        let url = try #require(made.json["url"] as? String)
        #expect(url.hasPrefix("/s/"))
        return (try #require(made.json["id"] as? String), String(url.dropFirst(3)))
    }

    func items(_ token: String, headers: [String: String] = [:]) async throws -> [[String: Any]] {
        let reply = try await live.get("/api/shared/\(token)", headers: headers)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return reply.json["items"] as? [[String: Any]] ?? []
    }

    @Test func aLinkShowsItsItemsAndNothingElseUntilRevoked() async throws {
        let (photo, movie, other) = (
            try await upload("photos/androidx-media__tokyo.jpg"), try await upload("videos/androidx-media__sample.mp4"),
            try await upload("photos/exifsamples__Canon_40D.jpg")
        )
        let link = try await link(["assetIDs": [movie, photo], "removeLocation": false, "allowDownload": false])
        let shown = try await items(link.token)
        #expect(shown.compactMap { $0["id"] as? String } == [movie, photo], "in the order chosen")
        for item in shown {
            #expect(
                item["latitude"] == nil && item["place"] == nil && item["owner"] == nil && item["originalFilename"] == nil,
                "\(item.keys.sorted())")
            let urls = try #require(item["urls"] as? [String: String])
            #expect(urls["original"] == nil, "no download")
            let thumbnail = try #require(urls["thumbnail256"])
            #expect(thumbnail.hasPrefix("/s/\(link.token)/media/"))
            let reply = try await live.get(thumbnail)
            #expect(reply.status == 200 && reply.header("Cache-Control") == "private, no-cache")
        }
        let base = "/s/\(link.token)/media"
        #expect(try await live.get("\(base)/\(photo)/original").json["code"] as? String == "download_not_allowed")
        #expect(try await live.get("/s/\(link.token)/download").json["code"] as? String == "download_not_allowed")
        #expect(try await live.get("\(base)/\(movie)/stream").status == 200)
        #expect(try await live.get("\(base)/\(movie)/stream/0.mp4").status == 200)
        for path in ["\(base)/\(other)/thumbnail", "\(base)/\(other)/display?w=100&h=100", "\(base)/\(other)/original"] {
            #expect(try await live.get(path).status == 404, "\(path): not in the link")
        }
        // A token this library did not make, or one changed by a digit, names no link.
        var forged = Array(link.token)
        forged[40] = forged[40] == "0" ? "1" : "0"
        for token in [String(forged), "abc", String(repeating: "0", count: 64), link.token + "0"] {
            let reply = try await live.get("/api/shared/\(token)")
            #expect(reply.status == 404 && reply.json["code"] as? String == "link_not_found", "\(token)")
        }
        // Trashed by its owner, an item leaves the link.
        #expect(try await live.request("POST", "/api/assets/trash", body: try json(["ids": [photo]])).status == 200)
        #expect(try await items(link.token).compactMap { $0["id"] as? String } == [movie])
        #expect(try await live.get("\(base)/\(photo)/thumbnail").status == 404)

        let listed = try await live.get("/api/shares").json["links"] as? [[String: Any]] ?? []
        #expect(listed.count == 1 && listed.first?["url"] as? String == "/s/\(link.token)" && listed.first?["assetCount"] as? Int == 2)
        #expect(try await live.request("DELETE", "/api/shares/\(link.id)").status == 204)
        #expect(try await live.get("/api/shared/\(link.token)").status == 404)
        #expect(try await live.get("\(base)/\(movie)/thumbnail").status == 404, "revoked: at once")
        #expect(try await live.request("DELETE", "/api/shares/\(link.id)").status == 404)
    }

    @Test func aPasswordIsAskedOnceAndGuessesAreLimited() async throws {
        let photo = try await upload("photos/exifsamples__Canon_40D.jpg")
        let album = try #require(try await live.request("POST", "/api/albums", body: try json(["title": "Wedding"])).json["id"] as? String)
        #expect(try await live.request("POST", "/api/albums/\(album)/assets", body: try json(["ids": [photo]])).status == 200)
        let link = try await link(["albumID": album, "password": "confetti and cake", "removeLocation": true, "allowDownload": true])
        let locked = try await live.get("/api/shared/\(link.token)")
        #expect(locked.status == 401 && locked.json["code"] as? String == "password_required")
        #expect(try await live.get("/s/\(link.token)/media/\(photo)/thumbnail").status == 401)
        #expect(try await live.get("/s/\(link.token)").status == 200, "the page itself asks for the password")

        let unlock = "/api/shared/\(link.token)/unlock"
        let wrong = try await live.request("POST", unlock, body: try json(["password": "cake and confetti"]))
        #expect(wrong.status == 401 && wrong.json["code"] as? String == "wrong_password")
        let right = try await live.request("POST", unlock, body: try json(["password": "confetti and cake"]))
        #expect(right.status == 200)
        let cookie = try #require(right.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        #expect(cookie.hasPrefix("cameraroll_link_\(link.id)="))
        let shown = try await live.get("/api/shared/\(link.token)", headers: ["Cookie": cookie])
        #expect(shown.json["title"] as? String == "Wedding" && (shown.json["items"] as? [Any])?.count == 1)
        #expect(try await live.get("/s/\(link.token)/media/\(photo)/original", headers: ["Cookie": cookie]).status == 200)

        // Another link's cookie opens nothing else.
        let other = try await self.link(["albumID": album, "password": "another password", "removeLocation": false, "allowDownload": false])
        #expect(try await live.get("/api/shared/\(other.token)", headers: ["Cookie": cookie]).status == 401)

        // Wrong guesses lock the guesser out as sign-in's do.
        var last = 0
        for _ in 0..<12 where last != 429 {
            last = try await live.request("POST", unlock, body: try json(["password": "a guess, again"])).status
        }
        #expect(last == 429)
        let refused = try await live.request("POST", unlock, body: try json(["password": "confetti and cake"]))
        #expect(refused.status == 429 && refused.header("Retry-After") != nil, "even the right one, while locked out")
    }

    @Test func anExpiredLinkSaysSo() async throws {
        let photo = try await upload("photos/exifsamples__Canon_40D.jpg")
        let key = try CapabilityKey.kept(in: URL(fileURLWithPath: live.library.folder.root))
        let id = ShareTokens.newID()
        let options = ShareLink.Options(removeLocation: false, allowDownload: true, allowUpload: false)
        _ = try await live.library.catalog.createLink(
            NewShareLink(content: .assets([photo]), lifetime: 60, password: nil, options: options), id: id, owner: .first,
            now: Date().addingTimeInterval(-61))
        let token = ShareTokens(key: key).token(for: id)
        let reply = try await live.get("/api/shared/\(token)")
        #expect(reply.status == 410 && reply.json["code"] as? String == "link_expired")
        #expect(try await live.get("/s/\(token)/media/\(photo)/original").status == 410)
        let listed = try #require((try await live.get("/api/shares").json["links"] as? [[String: Any]])?.first)
        #expect(listed["expired"] as? Bool == true && listed["expiresAt"] as? String != nil)
    }

    @Test func whatALinkMayBeMadeOf() async throws {
        let photo = try await upload("photos/exifsamples__Canon_40D.jpg")
        let album = try #require(try await live.request("POST", "/api/albums", body: try json(["title": "Trip"])).json["id"] as? String)
        let flags: [String: Any] = ["removeLocation": false, "allowDownload": false]
        let refused: [([String: Any], Int, String)] = [
            (["assetIDs": [photo], "albumID": album], 400, "invalid_share"),
            ([:], 400, "invalid_share"),
            (["assetIDs": [photo], "removeLocation": true], 400, "invalid_share"),
            (["assetIDs": ["0123456789abcdef0123456789abcdef"]], 404, "not_found"),
            (["assetIDs": [photo], "allowUpload": true], 400, "invalid_request"),
            (["assetIDs": [photo], "expiresIn": 0], 400, "invalid_request"),
            (["assetIDs": [photo], "password": "short"], 400, "weak_password"),
            (["albumID": "cameraRoll"], 409, "not_allowed"),
        ]
        for (fields, status, code) in refused {
            let body = fields.keys.contains("removeLocation") ? fields : fields.merging(flags) { $1 }
            let reply = try await live.request("POST", "/api/shares", body: try json(fields.isEmpty ? flags : body))
            #expect(reply.status == status && reply.json["code"] as? String == code, "\(fields): \(reply.status) \(reply.json)")
        }
        #expect((try await live.get("/api/shares").json["links"] as? [Any])?.isEmpty == true, "none was made")
    }

    /// A wedding album's link takes the guests' photos: each lands in the owner's library and the
    /// album, marked as from the link; a link that does not take them refuses.
    @Test func guestsAddToAnAlbumThroughItsLink() async throws {
        let album = try #require(try await live.request("POST", "/api/albums", body: try json(["title": "Wedding"])).json["id"] as? String)
        let open = try await link(["albumID": album, "removeLocation": true, "allowDownload": false, "allowUpload": true])
        let shut = try await link(["albumID": album, "removeLocation": true, "allowDownload": false])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/exifsamples__Canon_40D.jpg")))
        let headers = ["Content-Type": "application/octet-stream", "X-Filename": "guest.jpg"]
        let refused = try await live.request("POST", "/api/shared/\(shut.token)/assets", body: bytes, headers: headers)
        #expect(refused.status == 403 && refused.json["code"] as? String == "upload_not_allowed")
        // A token not of this library's making is refused before anything is taken in.
        let forged = String(open.token.dropLast()) + (open.token.hasSuffix("0") ? "1" : "0")
        let stranger = try await live.request("POST", "/api/shared/\(forged)/assets", body: bytes, headers: headers)
        #expect(stranger.status == 404 && stranger.json["code"] as? String == "link_not_found")
        #expect(try await live.get("/s/\(forged)/media/\(String(repeating: "a", count: 32))/original").status == 404)

        let added = try await live.request("POST", "/api/shared/\(open.token)/assets", body: bytes, headers: headers)
        #expect(added.status == 201, "\(added.json)")
        let id = try #require(added.json["id"] as? String)
        #expect(try await items(open.token).compactMap { $0["id"] as? String } == [id])
        let mine = try await live.get("/api/assets/\(id)")
        #expect(mine.json["fromLink"] as? String == open.id && mine.json["owner"] as? Int == Owner.first.id)
        let listed = try await live.get("/api/assets?album=\(album)").json["assets"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["id"] as? String } == [id])
        #expect(try await live.request("POST", "/api/shared/\(open.token)/assets", body: Data(), headers: headers).status == 422)
        #expect(
            try await live.request(
                "POST", "/api/shares",
                body: try json(["assetIDs": [id], "removeLocation": true, "allowDownload": true, "allowUpload": true])
            ).status == 400,
            "chosen items take no uploads")
    }

    /// Every byte a `removeLocation` link serves (originals, renders, a movie's poster, rendition
    /// and stream) is read by exiftool, which finds no location in any; the same items through
    /// a link that keeps it have one in each original.
    @Test func withRemoveLocationNothingServedCarriesALocation() async throws {
        var ids: [String] = []
        for file in ["photos/androidx-media__tokyo.jpg", "photos/pigallery2__IMG_7943.HEIC", "photos/libvips__avif-orientation-6.avif"] {
            ids.append(try await upload(file))
        }
        let directory = TemporaryDirectory()
        let made = directory.file("located.mp4")
        _ = try await Executable.run(
            program: "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-metadata", "location=+48.8584+002.2945/", made,
            ])
        let movie = try await live.request(
            "POST", "/api/assets", body: try Data(contentsOf: URL(fileURLWithPath: made)),
            headers: ["Content-Type": "application/octet-stream", "X-Filename": "located.mp4"])
        ids.append(try #require(movie.json["id"] as? String))

        let kept = try await link(["assetIDs": ids, "removeLocation": false, "allowDownload": true])
        let removed = try await link(["assetIDs": ids, "removeLocation": true, "allowDownload": true])
        let located = try await tags(of: try await items(kept.token).map { try #require(($0["urls"] as? [String: String])?["original"]) })
        #expect(located.count == ids.count)
        for (path, tags) in located { #expect(hasLocation(tags), "\(path) has its location: the test can fail") }

        var served: [String] = []
        for item in try await items(removed.token) {
            let urls = try #require(item["urls"] as? [String: String])
            served += ["original", "thumbnail256", "thumbnail512", "poster", "video"].compactMap { urls[$0] }
            served.append(try #require(urls["display"]) + "?w=300&h=300&dpr=2")
            if let stream = urls["stream"] { served += ["\(stream)/0-init.mp4", "\(stream)/0.mp4"] }
        }
        let found = try await tags(of: served)
        #expect(found.count == served.count)
        for (path, tags) in found { #expect(!hasLocation(tags), "\(path): \(tags.keys.filter { $0.contains("GPS") }.sorted())") }

        // The whole link as one archive: the same copies, named for what they are now.
        let whole = try await archived(kept.token)
        #expect(whole.count == ids.count && whole.allSatisfy { hasLocation($0.tags) }, "\(whole.map(\.name))")
        let unlocated = try await archived(removed.token)
        #expect(
            unlocated.map(\.name).sorted() == [
                "androidx-media__tokyo.jpg", "libvips__avif-orientation-6.jpg", "located.mp4", "pigallery2__IMG_7943.jpg",
            ],
            "\(unlocated.map(\.name))")
        for file in unlocated { #expect(!hasLocation(file.tags), "\(file.name) in the archive") }
    }

    /// The files of a link's archive, tested and unpacked by Info-ZIP's unzip, with what exiftool
    /// reads in each.
    func archived(_ token: String) async throws -> [(name: String, tags: [String: Any])] {
        let reply = try await live.get("/s/\(token)/download")
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/zip", "\(reply.status)")
        let directory = TemporaryDirectory()
        let archive = directory.file("link.zip")
        try reply.body.write(to: URL(fileURLWithPath: archive))
        _ = try await Executable.run(program: "/usr/bin/unzip", ["-q", archive, "-d", directory.file("files")])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("files")).sorted()
        let run = try await Executable.run(
            program: "/usr/bin/exiftool", ["-j", "-a", "-G1", "-ee"] + names.map { directory.file("files/\($0)") })
        let all = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
        return zip(names, all).map { ($0, $1) }
    }

    func hasLocation(_ tags: [String: Any]) -> Bool {
        tags.keys.contains { $0.contains("GPS") || $0.hasSuffix(":Location") || $0.hasSuffix(":LocationInformation") }
    }

    /// What exiftool reads in each of the files these paths serve, read at once.
    func tags(of paths: [String]) async throws -> [(String, [String: Any])] {
        let directory = TemporaryDirectory()
        var files: [String] = []
        for (index, path) in paths.enumerated() {
            let reply = try await live.get(path)
            #expect(reply.status == 200, "\(path): \(reply.status)")
            files.append(directory.file("\(index)"))
            try reply.body.write(to: URL(fileURLWithPath: files[index]))
        }
        let run = try await Executable.run(program: "/usr/bin/exiftool", ["-j", "-a", "-G1", "-ee"] + files)
        let all = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
        return zip(paths, all).map { ($0, $1) }
    }
}
