import Credentials
import Foundation
import TestSupport
import Testing

/// Two people on one server: each route that names an asset or an album, tried by one person
/// with the other's ids, answers as for an id that never was (404), and the other's items are
/// in none of one's listings. The first admin asks from this computer; Anna signs in.
@Suite(.serialized) struct IsolationTests {
    let live: LiveServer
    /// Anna's cookie.
    let anna: [String: String]

    init() async throws {
        live = try LiveServer()
        let users = UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root))
        try await users.setFirstAdminPassword("the owner's password")
        try await users.add("anna", admin: false, password: "anna's password")
        let signedIn = try await live.request(
            "POST", "/api/session", body: try JSONEncoder().encode(["user": "anna", "password": "anna's password"]))
        let cookie = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        anna = ["Cookie": cookie]
    }

    func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    @Test func nobodyReachesAnothersItemsByTheirIds() async throws {
        let hers = try await live.upload("photos/exifsamples__Canon_40D.jpg", query: "?album=cameraRoll", headers: anna)
        #expect(hers.status == 201)
        let herID = try #require(hers.json["id"] as? String)
        let mine = try await live.upload("photos/exifsamples__Canon_40D.jpg")
        #expect(mine.status == 201, "the same bytes are the owner's own asset")
        let myID = try #require(mine.json["id"] as? String)
        #expect(myID != herID)
        let movie = try await live.upload("videos/androidx-media__sample.mp4", headers: anna)
        let movieID = try #require(movie.json["id"] as? String)
        let album = try await live.request("POST", "/api/albums", body: try json(["title": "Anna's trip"]), headers: anna)
        let albumID = try #require(album.json["id"] as? String)
        #expect(
            try await live.request("POST", "/api/albums/\(albumID)/assets", body: try json(["ids": [herID]]), headers: anna).status == 200)

        // Her resumable upload, half sent, and her download.
        let tus = ["Tus-Resumable": "1.0.0"]
        let upload = try await live.request(
            "POST", "/api/uploads", headers: tus.merging(anna) { $1 }.merging(["Upload-Length": "8"]) { $1 })
        let uploadPath = try #require(upload.header("Location"))
        let download = try await live.request("POST", "/api/downloads", body: try json(["ids": [herID]]), headers: anna)
        let downloadPath = try #require(download.header("Location"))

        // Her link to her album.
        let flags: [String: Any] = ["removeLocation": true, "allowDownload": false]
        let link = try await live.request("POST", "/api/shares", body: try json(flags.merging(["albumID": albumID]) { $1 }), headers: anna)
        let linkID = try #require(link.json["id"] as? String)

        let ids = try json(["ids": [herID]])
        let piece = ["Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"].merging(tus) { $1 }
        let tusTries: [(String, [String: String], Data?)] = [
            ("HEAD", tus, nil), ("GET", tus, nil), ("PATCH", piece, Data("12345678".utf8)), ("DELETE", tus, nil),
        ]
        for (method, headers, body) in tusTries {
            let reply = try await live.request(method, uploadPath, body: body, headers: headers)
            #expect(reply.status == 404, "\(method) \(uploadPath): \(reply.status)")
        }
        #expect(try await live.request("HEAD", uploadPath, headers: tus.merging(anna) { $1 }).header("Upload-Offset") == "0")

        // The first to act on a picker takes it: to anyone else it is not there.
        let picker = try await live.request("POST", "/api/picker/sessions", body: try json(["sourceType": "photoLibrary"]))
        let pickerID = try #require(picker.json["id"] as? String)
        let opened = try await live.request(
            "POST", "/api/picker/sessions/\(pickerID)/events", body: try json(["event": "open"]), headers: anna)
        #expect(opened.status == 200)
        let chosen = try await live.request(
            "POST", "/api/picker/sessions/\(pickerID)/events", body: try json(["event": "choose", "assetID": myID]))
        #expect(chosen.status == 404, "another's picker")
        let choose = { (asset: String) in try json(["event": "choose", "assetID": asset]) }
        let mineInHers = try await live.request("POST", "/api/picker/sessions/\(pickerID)/events", body: try choose(myID), headers: anna)
        #expect(mineInHers.status == 404, "her picker offers only hers")
        let hersInHers = try await live.request("POST", "/api/picker/sessions/\(pickerID)/events", body: try choose(herID), headers: anna)
        #expect(hersInHers.status == 200)
        #expect(try await live.get(downloadPath, headers: anna).status == 200)
        let tries: [(String, String, Data?)] = [
            ("GET", downloadPath, nil),
            ("POST", "/api/downloads", ids),
            ("GET", "/api/assets/\(herID)", nil),
            ("PUT", "/api/assets/\(herID)/edit", try json(["rotation": 90])),
            ("DELETE", "/api/assets/\(herID)", nil),
            ("POST", "/api/assets/\(herID)/albums/cameraRoll", nil),
            ("POST", "/api/assets/favorite", try json(["ids": [herID], "favorite": true])),
            ("POST", "/api/assets/trash", ids),
            ("POST", "/api/assets/restore", ids),
            ("POST", "/api/assets/delete", ids),
            ("GET", "/media/\(herID)/thumbnail", nil),
            ("GET", "/media/\(herID)/thumbnail?size=512", nil),
            ("GET", "/media/\(herID)/display?w=100&h=100", nil),
            ("GET", "/media/\(herID)/edited?w=100&h=100", nil),
            ("GET", "/media/\(herID)/original", nil),
            ("GET", "/media/\(herID)/poster", nil),
            ("GET", "/media/\(movieID)/poster", nil),
            ("GET", "/media/\(movieID)/video", nil),
            ("GET", "/media/\(movieID)/stream", nil),
            ("GET", "/media/\(movieID)/stream/index.m3u8", nil),
            ("GET", "/media/\(movieID)/stream/0.mp4", nil),
            ("GET", "/media/\(movieID)/strip", nil),
            ("GET", "/media/\(movieID)/trimmed", nil),
            ("GET", "/api/assets/\(movieID)/rendition", nil),
            ("POST", "/api/assets/\(movieID)/rendition", nil),
            ("GET", "/api/albums/\(albumID)", nil),
            ("PATCH", "/api/albums/\(albumID)", try json(["title": "Mine now"])),
            ("DELETE", "/api/albums/\(albumID)", nil),
            ("POST", "/api/albums/\(albumID)/assets", try json(["ids": [myID]])),
            ("POST", "/api/albums/\(albumID)/assets/remove", ids),
            ("POST", "/api/albums/cameraRoll/assets", ids),
            ("GET", "/api/assets?album=\(albumID)", nil),
            ("GET", "/api/timeline?album=\(albumID)", nil),
            ("DELETE", "/api/shares/\(linkID)", nil),
            ("POST", "/api/shares", try json(flags.merging(["albumID": albumID]) { $1 })),
            ("POST", "/api/shares", try json(flags.merging(["assetIDs": [herID]]) { $1 })),
        ]
        for (method, path, body) in tries {
            let reply = try await live.request(method, path, body: body)
            #expect(reply.status == 404, "\(method) \(path): \(reply.status) \(String(decoding: reply.body, as: UTF8.self).prefix(200))")
        }

        // Each lists their own alone; hers is untouched by all of the above.
        let listed = { (headers: [String: String]) async throws -> [String] in
            (try await live.get("/api/assets", headers: headers).json["assets"] as? [[String: Any]] ?? []).compactMap {
                $0["id"] as? String
            }
        }
        #expect(try await listed([:]) == [myID])
        #expect((try await live.get("/api/shares").json["links"] as? [Any])?.isEmpty == true, "her link is not listed for me")
        #expect((try await live.get("/api/shares", headers: anna).json["links"] as? [[String: Any]])?.first?["id"] as? String == linkID)
        #expect(Set(try await listed(anna)) == [herID, movieID])
        let herAsset = try await live.get("/api/assets/\(herID)", headers: anna)
        #expect(herAsset.status == 200 && herAsset.json["favorite"] as? Bool == false && herAsset.json["trashed"] as? Bool == false)
        #expect(herAsset.json["inCameraRoll"] as? Bool == true, "in her own Camera Roll")
        let albums = (try await live.get("/api/albums").json["albums"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(albums == ["cameraRoll"])
        let hersAlbums = try await live.get("/api/albums", headers: anna).json["albums"] as? [[String: Any]] ?? []
        #expect(hersAlbums.compactMap { $0["id"] as? String } == ["cameraRoll", albumID])
        #expect(hersAlbums.map { $0["count"] as? Int } == [1, 1])
        #expect(try await live.get("/media/\(herID)/thumbnail", headers: anna).status == 200)
        #expect(try await live.get("/media/\(movieID)/poster", headers: anna).status == 200)
        #expect(try await live.get("/api/assets/\(movieID)/rendition", headers: anna).status == 200)
        // Her movie plays for her: its stream, and as it is (untrimmed).
        #expect(try await live.get("/media/\(movieID)/stream", headers: anna).status == 200)
        #expect(try await live.get("/media/\(movieID)/trimmed", headers: anna).status == 200)
    }

    /// Recover All and Delete All take in one's own Recently Deleted alone; each item there says
    /// when it is deleted for good, 30 days after it came.
    @Test func recentlyDeletedAsAWholeIsOnesOwn() async throws {
        let herID = try #require(try await live.upload("photos/lychee__aarhus.jpg", headers: anna).json["id"] as? String)
        let mine = try await live.upload("photos/exifsamples__Canon_40D.jpg")
        let myID = try #require(mine.json["id"] as? String)
        let other = try #require(try await live.upload("photos/androidx-media__london.jpg").json["id"] as? String)
        #expect(try await live.request("POST", "/api/assets/trash", body: try json(["ids": [herID]]), headers: anna).status == 200)
        #expect(try await live.request("POST", "/api/assets/trash", body: try json(["ids": [myID, other]])).status == 200)

        let trashed = try await live.get("/api/assets/\(myID)")
        let since = try #require(trashed.json["trashedDate"] as? String)
        let purge = try #require(trashed.json["purgeDate"] as? String)
        let dates = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        // To the millisecond both are written in.
        #expect(abs(try Date(purge, strategy: dates).timeIntervalSince(try Date(since, strategy: dates)) - 30 * 86400) < 0.002)
        #expect(mine.json["purgeDate"] == nil && mine.json["trashedDate"] == nil, "only what is in the trash")

        let restored = try await live.request("POST", "/api/trash/restore")
        #expect(restored.status == 200 && restored.json["changed"] as? Int == 2)
        #expect(Set(restored.json["ids"] as? [String] ?? []) == [myID, other])
        #expect(try await live.get("/api/assets/\(herID)", headers: anna).json["trashed"] as? Bool == true, "hers stays where she put it")
        #expect(try await live.get("/api/timeline").json["count"] as? Int == 2)

        #expect(try await live.request("POST", "/api/assets/trash", body: try json(["ids": [myID]])).status == 200)
        let emptied = try await live.request("POST", "/api/trash/empty")
        #expect(emptied.status == 200 && emptied.json["changed"] as? Int == 1)
        #expect(try await live.get("/api/assets/\(myID)").status == 404)
        #expect(try await live.get("/api/assets/\(herID)", headers: anna).status == 200, "hers is not deleted")
        #expect(try await live.request("POST", "/api/trash/restore").json["changed"] as? Int == 0, "nothing left to recover")
    }

    /// The sites each allows are their own: another's are not listed and cannot be removed, and
    /// a picker a site opened is not one's to pick for until one allows the site too; then the
    /// links are given under one's own app, with one's own lifetime.
    @Test func eachPersonAllowsTheirOwnSites() async throws {
        let site = ["Origin": "https://blog.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"]
        let refused = try await live.request("POST", "/api/picker/sessions", body: try json(["sourceType": "photoLibrary"]), headers: site)
        #expect(refused.status == 403, "nobody allows it yet")
        let mine = try await live.request(
            "POST", "/api/apps", body: try json(["origin": "https://blog.example", "name": "Owner's blog", "linkLifetime": 60]))
        let myApp = try #require(mine.json["id"] as? String)
        #expect((try await live.get("/api/apps", headers: anna).json["apps"] as? [Any])?.isEmpty == true)
        #expect(try await live.request("DELETE", "/api/apps/\(myApp)", headers: anna).status == 404)
        #expect(try await live.request("DELETE", "/api/apps/https%3A%2F%2Fblog.example", headers: anna).status == 404)

        let hers = try await live.upload("photos/exifsamples__Canon_40D.jpg", headers: anna)
        let herID = try #require(hers.json["id"] as? String)
        let opened = try await live.request("POST", "/api/picker/sessions", body: try json(["sourceType": "photoLibrary"]), headers: site)
        #expect(opened.status == 201, "the owner allows it")
        let pickerID = try #require(opened.json["id"] as? String)
        let events = "/api/picker/sessions/\(pickerID)/events"
        let notHers = try await live.request("POST", events, body: try json(["event": "open"]), headers: anna)
        #expect(notHers.status == 403 && notHers.json["code"] as? String == "app_not_allowed")

        let allowed = try await live.request(
            "POST", "/api/apps", body: try json(["origin": "https://blog.example", "name": "Anna's blog", "linkLifetime": 600]),
            headers: anna)
        let herApp = try #require(allowed.json["id"] as? String)
        #expect(herApp != myApp)
        #expect(try await live.request("POST", events, body: try json(["event": "open"]), headers: anna).status == 200)
        let chosen = try await live.request("POST", events, body: try json(["event": "choose", "assetID": herID]), headers: anna)
        #expect(chosen.status == 200)
        let picked = String(decoding: chosen.body, as: UTF8.self)
        #expect(picked.contains("app=\(herApp)") && !picked.contains(myApp), "her links are her app's")
        #expect((try await live.get("/api/apps").json["apps"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Owner's blog"])
    }

    /// An album the owner shares with Anna: as a viewer she lists it (with its owner's name), its
    /// items and their media, and changes nothing; as an editor she adds her own; taken out, she
    /// reaches none of it again.
    @Test func aSharedAlbumIsSeenByItsMembersAlone() async throws {
        let mine = try await live.upload("photos/exifsamples__Canon_40D.jpg")
        let myID = try #require(mine.json["id"] as? String)
        let album = try await live.request("POST", "/api/albums", body: try json(["title": "Summer"]))
        let albumID = try #require(album.json["id"] as? String)
        _ = try await live.request("POST", "/api/albums/\(albumID)/assets", body: try json(["ids": [myID]]))
        #expect(try await live.get("/media/\(myID)/thumbnail", headers: anna).status == 404, "not shared yet")

        let unknown = try await live.request("POST", "/api/albums/\(albumID)/members", body: try json(["user": "zed", "role": "viewer"]))
        #expect(unknown.status == 404 && unknown.json["code"] as? String == "unknown_user")
        let badRole = try await live.request("POST", "/api/albums/\(albumID)/members", body: try json(["user": "anna", "role": "owner"]))
        #expect(badRole.status == 400)
        let shared = try await live.request("POST", "/api/albums/\(albumID)/members", body: try json(["user": "Anna", "role": "viewer"]))
        #expect(shared.status == 200)
        let members = try #require(shared.json["members"] as? [[String: Any]])
        #expect(members.map { $0["role"] as? String } == ["owner", "viewer"])
        #expect(members.map { ($0["user"] as? [String: Any])?["name"] as? String } == ["owner", "anna"])

        let hers = try #require(try await live.get("/api/albums", headers: anna).json["albums"] as? [[String: Any]])
        let summer = try #require(hers.first { $0["id"] as? String == albumID })
        #expect(summer["role"] as? String == "viewer" && (summer["owner"] as? [String: Any])?["name"] as? String == "owner")
        let listed = try await live.get("/api/assets?album=\(albumID)", headers: anna)
        #expect((listed.json["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [myID])
        #expect((listed.json["assets"] as? [[String: Any]])?.first?["owner"] as? Int == 1, "whose each item is: who added it")
        for path in ["/media/\(myID)/thumbnail", "/media/\(myID)/display?w=100&h=100", "/media/\(myID)/original", "/api/assets/\(myID)"] {
            #expect(try await live.get(path, headers: anna).status == 200, "\(path)")
        }
        // She downloads what she sees, as long as it is shared with her.
        let download = try await live.request("POST", "/api/downloads", body: try json(["ids": [myID]]), headers: anna)
        #expect(download.status == 201, "\(download.status)")
        let downloadPath = try #require(download.header("Location"))
        #expect(try await live.get(downloadPath, headers: anna).status == 200)
        let hersToo = try await live.upload("photos/lychee__train.jpg", headers: anna)
        let herID = try #require(hersToo.json["id"] as? String)
        let viewerAdds = try await live.request("POST", "/api/albums/\(albumID)/assets", body: try json(["ids": [herID]]), headers: anna)
        #expect(viewerAdds.status == 403 && viewerAdds.json["code"] as? String == "not_yours")
        let renames = try await live.request("PATCH", "/api/albums/\(albumID)", body: try json(["title": "Hers"]), headers: anna)
        #expect(renames.status == 403)
        #expect(
            try await live.request("POST", "/api/assets/favorite", body: try json(["ids": [myID], "favorite": true]), headers: anna).status
                == 404)

        _ = try await live.request("POST", "/api/albums/\(albumID)/members", body: try json(["user": "anna", "role": "editor"]))
        let editorAdds = try await live.request("POST", "/api/albums/\(albumID)/assets", body: try json(["ids": [herID]]), headers: anna)
        #expect(editorAdds.status == 200 && editorAdds.json["count"] as? Int == 2)
        #expect(try await live.get("/media/\(herID)/thumbnail").status == 200, "the owner sees what she added")

        #expect(try await live.request("DELETE", "/api/albums/\(albumID)/members/2").status == 204)
        #expect(try await live.get("/api/albums/\(albumID)", headers: anna).status == 404)
        #expect(try await live.get("/media/\(myID)/thumbnail", headers: anna).status == 404)
        #expect(try await live.get(downloadPath, headers: anna).status == 404, "nor her download of it")
        #expect(try await live.get("/media/\(herID)/thumbnail").status == 404, "what she added left with her")
        #expect(try await live.get("/media/\(herID)/thumbnail", headers: anna).status == 200, "and is hers still")
    }

    /// The owner shares their library with Anna: she lists it apart and sees its media; her own
    /// listing stays hers; it ends when the owner says.
    @Test func aPartnerListsTheSharedLibraryApart() async throws {
        let mine = try await live.upload("photos/exifsamples__Canon_40D.jpg")
        let myID = try #require(mine.json["id"] as? String)
        #expect(try await live.get("/api/assets?partner=1", headers: anna).status == 404, "not shared yet")
        let unknown = try await live.request("POST", "/api/partners", body: try json(["user": "zed"]))
        #expect(unknown.status == 404)
        let shared = try await live.request("POST", "/api/partners", body: try json(["user": "anna"]))
        #expect((shared.json["sharingWith"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["anna"])
        let hers = try await live.get("/api/partners", headers: anna)
        #expect((hers.json["sharedWithMe"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["owner"])

        let listed = try await live.get("/api/assets?partner=1", headers: anna)
        #expect((listed.json["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [myID])
        #expect(try await live.get("/api/timeline?partner=1", headers: anna).json["count"] as? Int == 1)
        #expect(try await live.get("/api/assets?partner=1&collection=favorites", headers: anna).status == 400)
        #expect(try await live.get("/api/assets?partner=x", headers: anna).status == 400)
        #expect(try await live.get("/media/\(myID)/thumbnail", headers: anna).status == 200)
        #expect((try await live.get("/api/assets", headers: anna).json["assets"] as? [Any])?.isEmpty == true)
        #expect(try await live.request("POST", "/api/assets/trash", body: try json(["ids": [myID]]), headers: anna).status == 404)

        // Shown inside her own Library: her Library view has both, the picker's library hers alone.
        let herOwn = try #require(
            try await live.upload("photos/lychee__train.jpg", headers: anna).json["id"] as? String)
        let shown = try await live.request("PUT", "/api/partners/1", body: try json(["inTimeline": true]), headers: anna)
        #expect((shown.json["sharedWithMe"] as? [[String: Any]])?.first?["inTimeline"] as? Bool == true)
        let ids = { (path: String) async throws -> Set<String> in
            Set((try await live.get(path, headers: anna).json["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        #expect(try await ids("/api/assets?collection=library") == [myID, herOwn])
        #expect(try await live.get("/api/timeline?collection=library", headers: anna).json["count"] as? Int == 2)
        #expect(try await ids("/api/assets?source=photoLibrary") == [herOwn], "a pick is from one's own library")
        #expect(try await ids("/api/assets?collection=favorites") == [], "favourites are one's own")
        #expect(try await live.request("PUT", "/api/partners/2", body: try json(["inTimeline": true])).status == 404, "not shared with me")

        #expect(try await live.request("DELETE", "/api/partners/2").status == 200)
        #expect(try await live.get("/api/assets?partner=1", headers: anna).status == 404)
        #expect(try await live.get("/media/\(myID)/thumbnail", headers: anna).status == 404)
        #expect(try await ids("/api/assets?collection=library") == [herOwn], "no longer shared, no longer shown")
    }
}
