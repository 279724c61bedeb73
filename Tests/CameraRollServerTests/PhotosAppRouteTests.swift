import Foundation
import TestSupport
import Testing

/// The Photos app's calls over HTTP: timeline, views, albums, favourites, Recently Deleted.
@Suite struct PhotosAppRouteTests {
    func json(_ value: Any) throws -> Data { try JSONSerialization.data(withJSONObject: value) }

    func ids(_ reply: LiveServer.Reply) -> [String] {
        (reply.json["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func theViewsAlbumsAndChangesOfTheLibraryPage() async throws {
        let live = try LiveServer()
        let old = try #require(try await live.upload("photos/exifsamples__olympus-c960.jpg").json["id"] as? String)
        let new = try #require(try await live.upload("photos/androidx-media__london.jpg").json["id"] as? String)

        let timeline = try await live.get("/api/timeline")
        #expect(timeline.json["count"] as? Int == 2)
        #expect((timeline.json["days"] as? [[String: Any]])?.compactMap { $0["day"] as? String } == ["2023-02-07", "2000-11-07"])
        #expect(ids(try await live.get("/api/assets?collection=recentlyAdded")) == [new, old])
        let both = try await live.get("/api/assets")
        let days = (both.json["days"] as? [[String: Any]])?.compactMap { "\($0["day"] ?? "")=\($0["count"] ?? "")" }
        #expect(days == ["2023-02-07=1", "2000-11-07=1"])
        let first = try await live.get("/api/assets?limit=1")
        #expect(ids(first) == [new] && first.json["previousCursor"] == nil)
        let cursor = try #require(first.json["nextCursor"] as? String)
        let second = try await live.get("/api/assets?limit=1&cursor=\(cursor)")
        #expect(ids(second) == [old])
        let back = try #require(second.json["previousCursor"] as? String)
        #expect(ids(try await live.get("/api/assets?limit=5&direction=newer&cursor=\(back)")) == [new])
        #expect(ids(try await live.get("/api/assets?day=2000-11-07")) == [old])
        for bad in [
            "collection=everything", "direction=sideways", "day=2000-02-30", "source=photoLibrary&album=x", "month=2000-01&day=2000-01-01",
        ] {
            let reply = try await live.get("/api/assets?\(bad)")
            let code = reply.json["code"] as? String ?? ""
            #expect(reply.status == 400 && ["invalid_parameter", "invalid_request"].contains(code), "\(bad)")
        }

        let created = try await live.request("POST", "/api/albums", body: try json(["title": "Old cameras"]))
        #expect(created.status == 201)
        let album = try #require(created.json["id"] as? String)
        #expect(created.header("Location") == "/api/albums/\(album)")
        let added = try await live.request("POST", "/api/albums/\(album)/assets", body: try json(["ids": [old, new]]))
        #expect(added.json["count"] as? Int == 2 && added.json["cover"] as? String == "/media/\(new)/thumbnail?size=256")
        #expect(added.json["added"] as? [String] == [old, new])
        let again = try await live.request("POST", "/api/albums/\(album)/assets", body: try json(["ids": [new, old]]))
        #expect(again.json["added"] as? [String] == [], "what an Undo would take out: nothing new")
        let saved = try await live.request("POST", "/api/albums/cameraRoll/assets", body: try json(["ids": [old]]))
        #expect(saved.status == 200 && saved.json["added"] as? [String] == [old])
        _ = try await live.request("POST", "/api/albums/cameraRoll/assets/remove", body: try json(["ids": [old]]))
        let covered = try await live.request("PATCH", "/api/albums/\(album)", body: try json(["coverAssetID": old, "title": "Cameras"]))
        #expect(covered.json["coverAssetID"] as? String == old && covered.json["title"] as? String == "Cameras")
        let reset = try await live.request("PATCH", "/api/albums/\(album)", body: Data(#"{"coverAssetID": null}"#.utf8))
        #expect(reset.json["coverAssetID"] as? String == new, "null: the newest again")
        #expect(ids(try await live.get("/api/assets?album=\(album)")) == [new, old])
        let albums = try await live.get("/api/albums").json["albums"] as? [[String: Any]] ?? []
        #expect(albums.compactMap { $0["id"] as? String } == ["cameraRoll", album])
        #expect(albums.first?["builtIn"] as? Bool == true)
        let renamed = try await live.request("PATCH", "/api/albums/cameraRoll", body: try json(["title": "Mine"]))
        #expect(renamed.status == 409 && renamed.json["code"] as? String == "not_allowed")
        _ = try await live.request("POST", "/api/albums/\(album)/assets/remove", body: try json(["ids": [new]]))
        #expect(ids(try await live.get("/api/assets?album=\(album)")) == [old])

        let favourite = try await live.request("POST", "/api/assets/favorite", body: try json(["ids": [old], "favorite": true]))
        #expect(favourite.status == 200 && favourite.json["changed"] as? Int == 1)
        #expect(ids(try await live.get("/api/assets?collection=favorites")) == [old])
        #expect(try await live.request("POST", "/api/assets/favorite", body: try json(["ids": [old]])).status == 400)
        #expect(try await live.request("POST", "/api/assets/favorite", body: try json(["ids": [], "favorite": true])).status == 400)

        #expect(try await live.request("POST", "/api/assets/trash", body: try json(["ids": [old, new]])).status == 200)
        #expect(ids(try await live.get("/api/assets")).isEmpty)
        #expect(Set(ids(try await live.get("/api/assets?collection=recentlyDeleted"))) == [old, new])
        #expect(try await live.request("POST", "/api/assets/restore", body: try json(["ids": [new]])).status == 200)
        let refused = try await live.request("POST", "/api/assets/delete", body: try json(["ids": [new]]))
        #expect(refused.status == 409 && refused.json["code"] as? String == "not_allowed", "only from the trash")
        #expect(try await live.request("POST", "/api/assets/delete", body: try json(["ids": [old]])).status == 200)
        #expect(try await live.get("/api/assets/\(old)").status == 404)
        #expect(try await live.request("DELETE", "/api/albums/\(album)").status == 204)
        #expect(try await live.get("/api/albums/\(album)").status == 404)
    }

    /// The library's editor: a turn, a mirror and a crop stored as the asset's edit, shown by the
    /// URLs its JSON gives (which name the edit), refused by name when impossible, and never by
    /// the picker, whose edits are crops.
    @Test func aPhotoIsTurnedFlippedAndCroppedAndItsURLsShowIt() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let edit = #"{"rotation": 90, "flipped": true, "cropRect": {"x": 0, "y": 600, "width": 1200, "height": 1200}}"#
        let edited = try await live.request("PUT", "/api/assets/\(id)/edit", body: Data(edit.utf8))
        #expect(edited.status == 200)
        let stored = try #require(edited.json["edit"] as? [String: Any])
        #expect(stored["rotation"] as? Int == 90 && stored["flipped"] as? Bool == true)
        let urls = try #require(edited.json["urls"] as? [String: String])
        #expect(urls["thumbnail256"] == "/media/\(id)/thumbnail?size=256&edit=t1m,0,600,1200,1200")
        #expect(urls["shown"] == "/media/\(id)/edited?edit=t1m,0,600,1200,1200")
        let thumbnail = try await live.get(try #require(urls["thumbnail256"]))
        #expect(thumbnail.status == 200 && thumbnail.header("X-Image-Width") == "256" && thumbnail.header("X-Image-Height") == "256")
        let shown = try await live.get(try #require(urls["shown"]) + "&w=300&h=300&dpr=1")
        #expect(
            shown.status == 200 && shown.header("X-Image-Width") == "300" && shown.header("Cache-Control")?.contains("immutable") == true)
        let turnedOnly = try await live.get("/media/\(id)/thumbnail?size=256&edit=t1")
        #expect(turnedOnly.header("X-Image-Width") == "171" && turnedOnly.header("X-Image-Height") == "256")
        let original = try await live.get("/media/\(id)/original")
        #expect(original.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/recurser__Landscape_1.jpg")))))

        for (bad, field) in [
            (#"{"rotation": 45}"#, "rotation"), (#"{"flipped": "yes"}"#, "flipped"),
            (#"{"rotation": 90, "cropRect": {"x": 0, "y": 0, "width": 1800, "height": 1200}}"#, "cropRect"),
            (#"{"rotation": 90, "trim": {"start": 0, "end": 1}}"#, "rotation"),
        ] {
            let reply = try await live.request("PUT", "/api/assets/\(id)/edit", body: Data(bad.utf8))
            #expect(reply.status == 400 && (reply.json["message"] as? String)?.hasPrefix(field) == true, "\(bad): \(reply.json)")
        }
        #expect(try await live.get("/media/\(id)/thumbnail?size=256&edit=t5").status == 400)
        let reverted = try await live.request("PUT", "/api/assets/\(id)/edit", body: Data("{}".utf8))
        #expect(
            reverted.json["edit"] == nil
                && (reverted.json["urls"] as? [String: String])?["thumbnail256"] == "/media/\(id)/thumbnail?size=256")

        let session = try await live.request("POST", "/api/picker/sessions", body: Data(#"{"allowsEditing": true}"#.utf8))
        let picker = try #require(session.json["id"] as? String)
        _ = try await live.request("POST", "/api/picker/sessions/\(picker)/events", body: Data(#"{"event": "open"}"#.utf8))
        _ = try await live.request(
            "POST", "/api/picker/sessions/\(picker)/events", body: Data(#"{"event": "choose", "assetID": "\#(id)"}"#.utf8))
        let turnedPick = try await live.request(
            "POST", "/api/picker/sessions/\(picker)/events",
            body: Data(#"{"event": "edited", "assetID": "\#(id)", "edit": {"rotation": 90}}"#.utf8))
        #expect(turnedPick.status == 400 && (turnedPick.json["message"] as? String)?.hasPrefix("rotation") == true)
    }
    /// A link's crop at the integers' extremes once took the whole server down (`x + width`
    /// overflowed); every URL that carries an edit now refuses it with a 400 and goes on serving.
    @Test func anEditAtTheIntegersExtremesIsRefusedAndTheServerGoesOn() async throws {
        let live = try LiveServer()
        let id = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let extremes = [
            "9223372036854775807,0,1,1", "0,9223372036854775807,1,1", "0,0,9223372036854775807,1", "1,1,1,9223372036854775807",
            "-9223372036854775808,0,1,1", "t1m,9223372036854775807,9223372036854775807,1,1", "99999999999999999999999,0,1,1",
        ]
        for edit in extremes {
            for path in [
                "/media/\(id)/thumbnail?size=256&edit=\(edit)", "/media/\(id)/thumbnail?size=512&edit=\(edit)",
                "/media/\(id)/edited?w=100&h=100&edit=\(edit)", "/api/thumbnails?size=256&items=\(id)~\(edit)",
            ] {
                let reply = try await live.get(path)
                #expect(reply.status == 400, "\(path): \(reply.status)")
            }
        }
        // As large as any picture may be: read, then found not to fit this one.
        let largest = "10000000,10000000,10000000,10000000"
        let reply = try await live.get("/media/\(id)/thumbnail?size=256&edit=\(largest)")
        #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_edit")
        let batch = try await live.get("/api/thumbnails?size=256&items=\(id)~\(largest)")
        #expect(batch.status == 200 && batch.body.count > 4 && !batch.body.dropFirst(4).isEmpty)
        #expect(
            String(decoding: batch.body.dropFirst(4), as: UTF8.self).contains(#""length":0"#), "nothing made of a crop that does not fit")
        #expect(try await live.get("/api/assets/\(id)").status == 200, "the server is still serving")
    }

    /// A screen's thumbnails in one response: the index names each in the order asked with its
    /// type and length, and the bytes that follow are the very thumbnails `/media/<id>/thumbnail`
    /// gives, an edited one included; one that is gone is a length of 0, not a failed batch.
    @Test func aBatchOfThumbnailsIsTheThumbnailsOneByOne() async throws {
        let live = try LiveServer()
        let plain = try #require(try await live.upload("photos/exifsamples__olympus-c960.jpg").json["id"] as? String)
        let turned = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let gone = String(repeating: "f", count: 64)
        let batch = try await live.get("/api/thumbnails?size=256&items=\(plain);\(turned)~t1;\(gone)")
        #expect(batch.status == 200 && batch.header("Content-Type") == "application/vnd.cameraroll.thumbnails")
        let bytes = [UInt8](batch.body)
        try #require(bytes.count > 4)
        let indexLength = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(bytes[4..<(4 + indexLength)])) as? [[String: Any]])
        #expect(index.compactMap { $0["id"] as? String } == [plain, turned, gone])
        #expect(index.last?["length"] as? Int == 0)
        var offset = 4 + indexLength
        for (entry, path) in zip(index, ["/media/\(plain)/thumbnail?size=256", "/media/\(turned)/thumbnail?size=256&edit=t1"]) {
            let length = try #require(entry["length"] as? Int)
            let single = try await live.get(path)
            #expect(entry["type"] as? String == single.header("Content-Type"))
            #expect(Data(bytes[offset..<(offset + length)]) == single.body, "\(path)")
            offset += length
        }
        #expect(offset == bytes.count)

        let tooMany = Array(repeating: plain, count: 201).joined(separator: ";")
        for bad in ["size=100&items=\(plain)", "size=256", "size=256&items=", "size=256&items=\(plain)~t5", "size=256&items=\(tooMany)"] {
            let reply = try await live.get("/api/thumbnails?\(bad)")
            #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_parameter", "\(bad.prefix(40))")
        }
    }
}
