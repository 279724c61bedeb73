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
        let root = URL(fileURLWithPath: live.library.folder.root)
        let person = { (id: Int, name: String, admin: Bool, password: String) throws -> [String: Any] in
            let hash = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(try PasswordHash(password: password)))
            return ["id": id, "name": name, "admin": admin, "password": hash]
        }
        let users = ["users": [try person(1, "owner", true, "the owner's password"), try person(2, "anna", false, "anna's password")]]
        try JSONSerialization.data(withJSONObject: users).write(to: root.appendingPathComponent("users.json"))
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

        let ids = try json(["ids": [herID]])
        let tries: [(String, String, Data?)] = [
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
    }
}
