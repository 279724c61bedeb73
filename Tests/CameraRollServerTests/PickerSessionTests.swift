import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import TestSupport
import Testing

/// The picker as a service: a session is created with a configuration, driven by the page's
/// events, and long-polled by whoever presented it.
@Suite(.serialized) struct PickerSessionTests {
    func create(_ live: LiveServer, _ configuration: String) async throws -> String {
        let reply = try await live.request("POST", "/api/picker/sessions", body: Data(configuration.utf8))
        #expect(reply.status == 201)
        #expect(reply.json["status"] as? String == "pending")
        #expect((reply.json["url"] as? String)?.hasPrefix("/picker/") == true)
        return try #require(reply.json["id"] as? String)
    }

    /// `edit`: the JSON of the edit an `edited` event brings.
    /// `removeLocation`: the picker's privacy switch, when the page sends it.
    func send(
        _ live: LiveServer, _ id: String, _ event: String, assetID: String? = nil, edit: String? = nil, removeLocation: Bool? = nil
    ) async throws -> LiveServer.Reply {
        var body: [String: Any] = ["event": event]
        body["assetID"] = assetID
        body["removeLocation"] = removeLocation
        body["edit"] = try edit.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
        return try await live.request("POST", "/api/picker/sessions/\(id)/events", body: try JSONSerialization.data(withJSONObject: body))
    }

    /// The asset's edit as the library keeps it, as JSON text ("null" for none).
    func storedEdit(_ live: LiveServer, _ assetID: String) async throws -> String {
        let edit = try await live.get("/api/assets/\(assetID)").json["edit"] ?? NSNull()
        return String(decoding: try JSONSerialization.data(withJSONObject: edit, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    @Test func aLongPollGetsTheInfoWhenTheUserFinishes() async throws {
        let live = try LiveServer()
        let assetID = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let id = try await create(live, #"{"sourceType":"photoLibrary","mediaTypes":["public.image"],"allowsEditing":true}"#)

        async let polled = live.get("/api/picker/sessions/\(id)?wait=30")
        #expect(try await send(live, id, "open").status == 200)
        let chose = try await send(live, id, "choose", assetID: assetID)
        #expect((chose.json["actions"] as? [[String: Any]])?.first?["action"] as? String == "showEditor")
        let crop = #"{"cropRect":{"x":300,"y":0,"width":1200,"height":1200}}"#
        #expect(try await send(live, id, "edited", assetID: assetID, edit: crop).status == 200)

        let result = try await polled
        #expect(result.json["status"] as? String == "finished")
        let info = try #require(result.json["info"] as? [String: Any])
        #expect(info["mediaType"] as? String == "public.image")
        #expect((info["originalImage"] as? String)?.hasPrefix("/media/\(assetID)/original?cap=") == true)
        let edited = try #require(info["editedImage"] as? String)
        #expect(edited.hasPrefix("/media/\(assetID)/edited?cap="))
        let rendered = try await live.get(edited)
        #expect(rendered.status == 200)
        #expect(rendered.header("X-Image-Width") == "1200" && rendered.header("X-Image-Height") == "1200", "the crop at its own size")
        #expect((info["cropRect"] as? [String: Int]) == ["x": 300, "y": 0, "width": 1200, "height": 1200])
        #expect(try await send(live, id, "cancel").status == 409)
    }

    /// The info a picker delivers for an asset the user chose, edited with `edit` (JSON) first.
    func pick(_ live: LiveServer, _ assetID: String, edit: String? = nil) async throws -> [String: Any] {
        let id = try await create(
            live, #"{"sourceType":"photoLibrary","mediaTypes":["public.image","public.movie"],"allowsEditing":\#(edit != nil)}"#)
        _ = try await send(live, id, "open")
        #expect(try await send(live, id, "choose", assetID: assetID).status == 200)
        if let edit {
            let before = try await storedEdit(live, assetID)
            #expect(try await send(live, id, "edited", assetID: assetID, edit: edit).status == 200)
            #expect(try await storedEdit(live, assetID) == before, "the pick's edit is not the library's")
        }
        return try #require(try await live.get("/api/picker/sessions/\(id)").json["info"] as? [String: Any])
    }

    /// The info of a session with this configuration in which the user chose `assetID`, with the
    /// picker's location switch as `removeLocation` says (nil: the page sends none).
    func chosen(_ live: LiveServer, _ assetID: String, in configuration: String, removeLocation: Bool? = nil) async throws
        -> [String: Any]
    {
        let session = try await create(live, configuration)
        _ = try await send(live, session, "open")
        #expect(try await send(live, session, "choose", assetID: assetID, removeLocation: removeLocation).status == 200)
        return try #require(try await live.get("/api/picker/sessions/\(session)").json["info"] as? [String: Any])
    }

    /// What exiftool (Debian's) reads in what a link serves, as `Group:Tag` keys.
    func tags(_ live: LiveServer, _ url: String) async throws -> [String: Any] {
        let reply = try await live.get(url)
        #expect(reply.status == 200, "\(url)")
        let directory = TemporaryDirectory()
        try reply.body.write(to: URL(fileURLWithPath: directory.file("picked")))
        let run = try await Executable.run(program: "/usr/bin/exiftool", ["-j", "-a", "-G1", directory.file("picked")])
        return try #require((try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])?.first)
    }

    /// A trimmed clip's URL serves the range the user picked, whatever the owner does to the
    /// asset's trim afterwards: never the whole movie.
    @Test func aTrimmedClipsURLKeepsItsRange() async throws {
        let live = try LiveServer()
        let assetID = try #require(try await live.upload("videos/photoprism__blue-go-video.mp4").json["id"] as? String)
        let info = try await pick(live, assetID, edit: #"{"trim":{"start":0.5,"end":1.5}}"#)
        let clip = try #require(info["mediaURL"] as? String)
        #expect(clip.hasPrefix("/media/\(assetID)/trimmed?cap="))
        let picked = try await live.get(clip)
        #expect(picked.status == 200)
        let whole = try await live.get("/media/\(assetID)/video")
        #expect(whole.status == 200 && picked.body != whole.body)

        for later in [#"{"trim":{"start":1,"end":2.4}}"#, "null"] {
            #expect(try await live.request("PUT", "/api/assets/\(assetID)/edit", body: Data(later.utf8)).status == 200)
            let again = try await live.get(clip)
            #expect(again.status == 200 && again.body == picked.body, "after \(later)")
        }
    }

    /// The same for a crop: the edited image's URL shows the crop picked.
    @Test func anEditedImagesURLKeepsItsCrop() async throws {
        let live = try LiveServer()
        let assetID = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let info = try await pick(live, assetID, edit: #"{"cropRect":{"x":300,"y":0,"width":1200,"height":1200}}"#)
        let edited = try #require(info["editedImage"] as? String)
        for later in [#"{"cropRect":{"x":0,"y":0,"width":600,"height":400}}"#, "null"] {
            #expect(try await live.request("PUT", "/api/assets/\(assetID)/edit", body: Data(later.utf8)).status == 200)
            let again = try await live.get(edited)
            #expect(again.status == 200, "after \(later)")
            #expect(again.header("X-Image-Width") == "1200" && again.header("X-Image-Height") == "1200", "after \(later)")
        }
    }

    /// An edit made in the picker is the pick's: the library's asset keeps its own (or none), and a
    /// later pick of the same asset starts without the earlier pick's edit.
    @Test func anEditInThePickerNeverChangesTheLibrary() async throws {
        let live = try LiveServer()
        let assetID = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let own = #"{"cropRect":{"x":0,"y":0,"width":600,"height":400}}"#
        #expect(try await live.request("PUT", "/api/assets/\(assetID)/edit", body: Data(own.utf8)).status == 200)
        let kept = try await storedEdit(live, assetID)
        #expect(kept.contains("600"))

        let info = try await pick(live, assetID, edit: #"{"cropRect":{"x":300,"y":0,"width":1200,"height":1200}}"#)
        #expect((info["cropRect"] as? [String: Int]) == ["x": 300, "y": 0, "width": 1200, "height": 1200])
        #expect(try await storedEdit(live, assetID) == kept, "the library's own crop is untouched")
        let plain = try await pick(live, assetID)
        #expect(plain["cropRect"] == nil && plain["editedImage"] == nil, "a pick without an edit has none, whatever the library keeps")

        // The owner's Camera app shows a pick's crop by naming it.
        let named = try await live.get("/media/\(assetID)/edited?edit=300,0,1200,1200&w=100&h=100&dpr=1")
        #expect(named.status == 200 && named.header("X-Image-Width") == "100" && named.header("X-Image-Height") == "100")
        #expect(try await live.get("/media/\(assetID)/edited?edit=0,0,99999,1").status == 400)
    }

    @Test func anAddGivesOneInfoPerItemInTheUsersOrder() async throws {
        let live = try LiveServer()
        let photo = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let movie = try #require(try await live.upload("videos/androidx-media__sample.mp4").json["id"] as? String)
        let id = try await create(
            live, #"{"mediaTypes":["public.image","public.movie"],"selectionLimit":2,"selection":"ordered","allowsEditing":true}"#)
        _ = try await send(live, id, "open")
        let add = { (ids: [String]) async throws -> LiveServer.Reply in
            try await live.request(
                "POST", "/api/picker/sessions/\(id)/events",
                body: try JSONSerialization.data(withJSONObject: ["event": "add", "assetIDs": ids]))
        }
        #expect(try await add([photo, movie, photo]).status == 400, "more than the limit")
        #expect(try await add([]).status == 400)
        #expect(try await add(["nosuchasset"]).status == 404)
        #expect(try await add([movie, photo]).status == 200)
        let finished = try await live.get("/api/picker/sessions/\(id)")
        #expect(finished.json["status"] as? String == "finished")
        let results = try #require(finished.json["results"] as? [[String: Any]])
        #expect(results.map { $0["assetID"] as? String } == [movie, photo])
        #expect((results[0]["mediaURL"] as? String)?.hasPrefix("/media/\(movie)/compatible?cap=") == true)
        #expect((results[1]["originalImage"] as? String)?.hasPrefix("/media/\(photo)/original?cap=") == true)
        #expect((finished.json["info"] as? [String: Any])?["assetID"] as? String == movie, "info is the first result")

        let one = try await create(live, #"{"mediaTypes":["public.image"]}"#)
        _ = try await send(live, one, "open")
        _ = try await send(live, one, "choose", assetID: photo)
        let single = try await live.get("/api/picker/sessions/\(one)")
        #expect((single.json["results"] as? [[String: Any]])?.map { $0["assetID"] as? String } == [photo], "results for one item too")
    }

    /// UIKit's export presets: `compatible` (the default) gives a JPEG of a HEIC, `current` the
    /// original; a JPEG is itself either way, and a movie's `current` is its original file.
    @Test func theExportPresetSaysWhatTheCallersURLsGive() async throws {
        let live = try LiveServer()
        let heic = try #require(try await live.upload("photos/pigallery2__IMG_7943.HEIC").json["id"] as? String)
        let jpeg = try #require(try await live.upload("photos/exifsamples__Canon_40D.jpg").json["id"] as? String)
        let movie = try #require(try await live.upload("videos/androidx-media__sample.mp4").json["id"] as? String)
        let asset = try await live.get("/api/assets/\(heic)").json
        let pickedWith = { (preset: String, id: String) async throws -> [String: Any] in
            try await chosen(live, id, in: #"{"mediaTypes":["public.image","public.movie"]\#(preset)}"#)
        }

        let compatible = try await pickedWith("", heic)
        let converted = try #require(compatible["originalImage"] as? String)
        #expect(converted.hasPrefix("/media/\(heic)/compatible?cap="))
        #expect((compatible["metadata"] as? [String: String])?["mimeType"] == "image/jpeg")
        let jpegBytes = try await live.get(converted)
        #expect(jpegBytes.status == 200 && jpegBytes.header("Content-Type") == "image/jpeg")
        #expect(Array(jpegBytes.body.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(jpegBytes.header("X-Image-Width") == "\(asset["width"] as? Int ?? 0)", "at its own size")
        #expect(jpegBytes.header("X-Image-Height") == "\(asset["height"] as? Int ?? 0)")

        let current = try await pickedWith(#","exportPreset":"current""#, heic)
        let original = try #require(current["originalImage"] as? String)
        #expect(original.hasPrefix("/media/\(heic)/original?cap="))
        let stored = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/pigallery2__IMG_7943.HEIC")))
        #expect(try await live.get(original).body == stored, "the original's bytes")

        #expect((try await pickedWith("", jpeg)["originalImage"] as? String)?.hasPrefix("/media/\(jpeg)/original?cap=") == true)
        #expect((try await pickedWith("", movie)["mediaURL"] as? String)?.hasPrefix("/media/\(movie)/compatible?cap=") == true)
        #expect(
            (try await pickedWith(#","exportPreset":"current""#, movie)["mediaURL"] as? String)?.hasPrefix("/media/\(movie)/original?cap=")
                == true)
    }

    /// A Live Photo is one item, whichever half came first; a picker whose mediaTypes name
    /// com.apple.live-photo gives its still and its movie (`livePhoto`), one without gives the still.
    @Test func aLivePhotoIsPickedAsOneWithBothFiles() async throws {
        let live = try LiveServer()
        _ = try await live.upload("videos/lychee__train.mov")
        let still = try #require(try await live.upload("photos/lychee__train.jpg").json["id"] as? String)
        let listed = try #require(try await live.get("/api/assets").json["assets"] as? [[String: Any]])
        #expect(listed.map { $0["id"] as? String } == [still], "the movie is the still's, in no listing")
        let movie = try #require((listed[0]["livePhoto"] as? [String: Any])?["movie"] as? String)

        let pickedWith = { (types: String) async throws -> [String: Any] in
            try await chosen(live, still, in: #"{"mediaTypes":[\#(types)]}"#)
        }
        let info = try await pickedWith(#""public.image","com.apple.live-photo""#)
        #expect(info["mediaType"] as? String == "public.image")
        let urls = try #require(info["livePhoto"] as? [String: String])
        #expect(urls["imageURL"] == info["originalImage"] as? String)
        let movieURL = try #require(urls["movieURL"])
        #expect(movieURL.hasPrefix("/media/\(movie)/compatible?cap="), "an H.264/AAC MP4, as UIKit's compatible export")
        #expect(try await live.get(movieURL).status == 200, "the link plays the movie")
        #expect(try await live.get(movieURL).header("Content-Type") == "video/mp4")

        #expect(try await pickedWith(#""public.image""#)["livePhoto"] == nil, "without it, the still alone")
        let alone = try await live.request("POST", "/api/picker/sessions", body: Data(#"{"mediaTypes":["com.apple.live-photo"]}"#.utf8))
        #expect(alone.status == 400 && (alone.json["message"] as? String)?.contains("goes with public.image") == true)
    }

    /// Privacy per pick: the caller's media leave out the location (and captions) the picker
    /// was asked to remove, as exiftool and ffprobe see them, while the library's original keeps
    /// them; the page's switch has the last word; the owner's own picker removes nothing unless asked.
    @Test func aPickThatRemovesTheLocationGivesMediaWithout() async throws {
        let live = try LiveServer()
        let photo = try #require(try await live.upload("photos/lychee__train.jpg").json["id"] as? String)
        let movie = try #require(try await live.upload("videos/pigallery2__IMG_7943_HEVC.MOV").json["id"] as? String)
        let picked = { (configuration: String, id: String, removeLocation: Bool?) async throws -> [String: Any] in
            try await chosen(live, id, in: configuration, removeLocation: removeLocation)
        }

        let asOwner = try await picked(#"{"mediaTypes":["public.image"]}"#, photo, nil)
        let original = try #require(asOwner["originalImage"] as? String)
        #expect(original.hasPrefix("/media/\(photo)/original?cap="), "the owner's own picker keeps everything unless asked")
        #expect(try await tags(live, original)["GPS:GPSLatitude"] != nil, "the corpus photo has a location")

        let removing = try await picked(#"{"mediaTypes":["public.image"],"removeLocation":true}"#, photo, nil)
        let redacted = try #require(removing["originalImage"] as? String)
        #expect(redacted.hasPrefix("/media/\(photo)/without/location?cap="))
        let redactedTags = try await tags(live, redacted)
        #expect(!redactedTags.keys.contains { $0.hasPrefix("GPS:") }, "no location")
        #expect(redactedTags["IFD0:Model"] as? String == "iPhone 6s", "the rest stays")
        #expect(try await tags(live, original)["GPS:GPSLatitude"] != nil, "the library's original keeps its location")

        let switchedOff = try await picked(#"{"mediaTypes":["public.image"],"removeLocation":true}"#, photo, false)
        #expect((switchedOff["originalImage"] as? String)?.hasPrefix("/media/\(photo)/original?cap=") == true, "the switch decides")

        let film = try await picked(#"{"mediaTypes":["public.movie"]}"#, movie, true)
        let filmURL = try #require(film["mediaURL"] as? String)
        #expect(filmURL.hasPrefix("/media/\(movie)/without/location?cap="))
        let reply = try await live.get(filmURL)
        #expect(reply.status == 200 && reply.header("Content-Type") == "video/mp4")
        let directory = TemporaryDirectory()
        try reply.body.write(to: URL(fileURLWithPath: directory.file("picked.mp4")))
        let probe = try await Executable.run(
            program: "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", directory.file("picked.mp4")])
        #expect(!probe.stdout.contains("ISO6709") && !probe.stdout.contains("location"), "\(probe.stdout)")
        #expect(try await live.get("/media/\(photo)/without/everything").status == 404)
    }

    /// A page may name only what its picker offers: a Camera Roll picker refuses an item outside
    /// the Camera Roll, a library picker an unsaved capture or a trashed item.
    @Test func aPickerTakesOnlyWhatItsSourceOffers() async throws {
        let live = try LiveServer()
        let saved = try #require(
            try await live.upload("photos/recurser__Landscape_1.jpg", query: "?album=cameraRoll").json["id"] as? String)
        let other = try #require(try await live.upload("photos/exifsamples__Canon_40D.jpg").json["id"] as? String)
        let capture = try #require(try await live.upload("photos/lychee__train.jpg", query: "?source=camera").json["id"] as? String)
        let roll = try await create(live, #"{"sourceType":"savedPhotosAlbum","selectionLimit":2}"#)
        _ = try await send(live, roll, "open")
        #expect(try await send(live, roll, "choose", assetID: other).status == 404)
        let add = try JSONSerialization.data(withJSONObject: ["event": "add", "assetIDs": [saved, other]])
        #expect(try await live.request("POST", "/api/picker/sessions/\(roll)/events", body: add).status == 404)
        #expect(try await send(live, roll, "choose", assetID: saved).status == 200)

        let library = try await create(live, #"{"sourceType":"photoLibrary"}"#)
        _ = try await send(live, library, "open")
        #expect(try await send(live, library, "choose", assetID: capture).status == 404, "an unsaved capture is in no album")
        #expect(try await live.request("DELETE", "/api/assets/\(other)").status == 200)
        #expect(try await send(live, library, "choose", assetID: other).status == 404, "nor is a trashed item")
        #expect(try await live.get("/api/picker/sessions/\(library)").json["status"] as? String == "pending")
    }

    /// PHPickerFilter: the listing shows only what the filter admits, and a pick of anything else
    /// is refused as not there.
    @Test func aFilterNarrowsTheListingAndThePick() async throws {
        let live = try LiveServer()
        let screenshot = try await live.request(
            "POST", "/api/assets", body: try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/recurser__Landscape_1.jpg"))),
            headers: ["Content-Type": "application/octet-stream", "X-Filename": "Screenshot_20240101-101010.jpg"]
        ).json
        #expect(screenshot["isScreenshot"] as? Bool == true)
        let photo = try #require(try await live.upload("photos/exifsamples__Canon_40D.jpg").json["id"] as? String)
        let slowMotion = try await live.upload("videos/androidx-media__sample_android_slow_motion.mp4").json
        #expect(slowMotion["captureFrameRate"] as? Double == 240)
        let movie = try #require(try await live.upload("videos/androidx-media__sample.mp4").json["id"] as? String)
        let listed = { (filter: String) async throws -> Set<String> in
            let query = filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let reply = try await live.get("/api/assets?filter=\(query)")
            #expect(reply.status == 200, "\(filter)")
            return Set((reply.json["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        let screenshotID = try #require(screenshot["id"] as? String)
        let slowMotionID = try #require(slowMotion["id"] as? String)
        #expect(try await listed(#""screenshots""#) == [screenshotID])
        #expect(try await listed(#"{"all":["images",{"not":"screenshots"}]}"#) == [photo])
        #expect(try await listed(#"{"any":["slomoVideos","screenshots"]}"#) == [screenshotID, slowMotionID])
        #expect(try await listed(#"{"not":"slomoVideos"}"#) == [screenshotID, photo, movie])
        for bad in [#""panoramas""#, "{", #"{"any":[]}"#] {
            let reply = try await live.get("/api/assets?filter=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_parameter", "\(bad)")
        }

        let session = try await create(live, #"{"mediaTypes":["public.image","public.movie"],"filter":{"not":"screenshots"}}"#)
        _ = try await send(live, session, "open")
        #expect(try await send(live, session, "choose", assetID: screenshotID).status == 404, "the filter leaves it out")
        let images = try await create(live, #"{"mediaTypes":["public.image"]}"#)
        _ = try await send(live, images, "open")
        #expect(try await send(live, images, "choose", assetID: movie).status == 400, "a movie is not an image")
        #expect(try await send(live, session, "choose", assetID: slowMotionID).status == 200)
        let camera = try await live.request("POST", "/api/picker/sessions", body: Data(#"{"sourceType":"camera","filter":"images"}"#.utf8))
        #expect(camera.status == 400)
    }

    @Test func anEditedEventNeedsAnEditThatFitsTheAsset() async throws {
        let live = try LiveServer()
        let assetID = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let id = try await create(live, #"{"sourceType":"photoLibrary","mediaTypes":["public.image"],"allowsEditing":true}"#)
        _ = try await send(live, id, "open")
        _ = try await send(live, id, "choose", assetID: assetID)
        for (edit, field) in [
            (nil, "edit"), (#"{"cropRect":{"x":0,"y":0,"width":99999,"height":10}}"#, "cropRect"),
            (#"{"trim":{"start":0,"end":1}}"#, "trim"), (#"{"cropRect":{"x":0.5,"y":0,"width":10,"height":10}}"#, "cropRect.x"),
        ] {
            let refused = try await send(live, id, "edited", assetID: assetID, edit: edit)
            #expect(refused.status == 400, "\(edit ?? "no edit")")
            #expect((refused.json["message"] as? String)?.hasPrefix(field) == true, "\(refused.json)")
        }
        #expect(try await live.get("/api/picker/sessions/\(id)").json["status"] as? String == "pending", "a refused edit changes nothing")
    }

    /// A picker's URLs stop working when the owner moves the asset to the trash (404, as for a
    /// deleted one); the owner still sees it there.
    @Test func aPickersURLsServeNothingFromTheTrash() async throws {
        let live = try LiveServer()
        let photo = try #require(try await live.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
        let movie = try #require(try await live.upload("videos/androidx-media__sample.mp4").json["id"] as? String)
        let image = try await pick(live, photo, edit: #"{"cropRect":{"x":0,"y":0,"width":100,"height":100}}"#)
        let clip = try await pick(live, movie, edit: #"{"trim":{"start":0.2,"end":0.8}}"#)
        let untrimmed = try await pick(live, movie)
        let urls = try [image["originalImage"], image["editedImage"], clip["mediaURL"], untrimmed["mediaURL"]].map {
            try #require($0 as? String)
        }
        for url in urls { #expect(try await live.get(url).status == 200, "\(url)") }

        #expect(try await live.request("DELETE", "/api/assets/\(photo)").status == 200)
        #expect(try await live.request("DELETE", "/api/assets/\(movie)").status == 200)
        for url in urls {
            let reply = try await live.get(url)
            #expect(reply.status == 404 && reply.json["code"] as? String == "not_found", "\(url)")
        }
        #expect(try await live.get("/media/\(photo)/original").status == 200, "the owner's own URLs still work")
        #expect(try await live.get("/media/\(movie)/thumbnail").status == 200)
    }

    @Test func cancelEndsTheSessionWithNothing() async throws {
        let live = try LiveServer()
        let id = try await create(live, #"{"sourceType":"camera","mediaTypes":["public.image","public.movie"]}"#)
        let opened = try await send(live, id, "open")
        #expect((opened.json["actions"] as? [[String: Any]])?.first?["action"] as? String == "showCamera")
        #expect(try await send(live, id, "cancel").status == 200)
        let result = try await live.get("/api/picker/sessions/\(id)?wait=5")
        #expect(result.json["status"] as? String == "cancelled")
        #expect(result.json["info"] == nil)
    }

    @Test func aLongPollIsWokenByTheEventThatEndsTheSession() async throws {
        let live = try LiveServer()
        let id = try await create(live, #"{"sourceType":"camera","mediaTypes":["public.image"]}"#)
        _ = try await send(live, id, "open")
        let started = Date()
        async let polled = live.get("/api/picker/sessions/\(id)?wait=60")
        try await Task.sleep(for: .seconds(1))
        #expect(try await send(live, id, "cancel").status == 200)
        #expect(try await polled.json["status"] as? String == "cancelled")
        #expect(Date().timeIntervalSince(started) < 30, "woken by the cancel, not by the poll's deadline of 60 s")
    }

    @Test func aPickerOutlivesARestartOfTheServer() async throws {
        let directory = TemporaryDirectory("cameraroll-server")
        let (id, assetID) = try await { () async throws -> (String, String) in
            let before = try LiveServer(directory, library: try Library(folder: DataFolder(directory.path)))
            let assetID = try #require(try await before.upload("photos/recurser__Landscape_1.jpg").json["id"] as? String)
            let id = try await create(before, #"{"sourceType":"photoLibrary","mediaTypes":["public.image"]}"#)
            #expect(try await send(before, id, "open").status == 200)
            await before.server?.stop()
            try await before.library.flush()
            return (id, assetID)
        }()
        let after = try LiveServer(directory, library: try Library(folder: DataFolder(directory.path)))
        #expect(try await after.get("/api/picker/sessions/\(id)").json["status"] as? String == "pending")
        #expect(try await send(after, id, "choose", assetID: assetID).status == 200)
        let result = try await after.get("/api/picker/sessions/\(id)?wait=5")
        #expect(result.json["status"] as? String == "finished")
        #expect((result.json["info"] as? [String: Any])?["assetID"] as? String == assetID)
    }

    @Test func aMovieWithoutEditingDeliversItsVideoURL() async throws {
        let live = try LiveServer()
        let assetID = try #require(try await live.upload("videos/androidx-media__sample.mp4").json["id"] as? String)
        let id = try await create(live, #"{"sourceType":"photoLibrary","mediaTypes":["public.image","public.movie"]}"#)
        _ = try await send(live, id, "open")
        _ = try await send(live, id, "choose", assetID: assetID)
        let info = try await live.get("/api/picker/sessions/\(id)").json["info"] as? [String: Any]
        #expect((info?["mediaURL"] as? String)?.hasPrefix("/media/\(assetID)/compatible?cap=") == true)
        #expect(info?["originalImage"] == nil)
    }

    @Test func badConfigurationsEventsAndIdsAreRefused() async throws {
        let live = try LiveServer()
        for bad in [#"{"mediaTypes":[]}"#, #"{"sourceType":"scanner"}"#, "nonsense"] {
            let reply = try await live.request("POST", "/api/picker/sessions", body: Data(bad.utf8))
            #expect(reply.status == 400, "\(bad)")
        }
        let movieOnly = try await create(live, #"{"mediaTypes":["public.movie"]}"#)
        let photo = try #require(try await live.upload("photos/exifsamples__Canon_40D.jpg").json["id"] as? String)
        _ = try await send(live, movieOnly, "open")
        #expect(try await send(live, movieOnly, "choose", assetID: photo).status == 400)
        #expect(try await send(live, movieOnly, "choose", assetID: "nope").status == 404)
        #expect(try await send(live, movieOnly, "dance").status == 400)
        #expect(try await live.get("/api/picker/sessions/unknown").status == 404)
    }

    @Test func openSessionsAreBounded() async throws {
        let live = try LiveServer()
        var statuses: [Int: Int] = [:]
        for _ in 0..<901 {
            let reply = try await live.request("POST", "/api/picker/sessions", body: Data("{}".utf8))
            statuses[reply.status, default: 0] += 1
            if reply.status == 429 { #expect(reply.json["code"] as? String == "too_many_sessions") }
        }
        #expect(statuses == [201: 900, 429: 1])
    }

    /// A stranger on the LAN takes a few sessions per network (an IPv6 /64 is one, whichever of its
    /// addresses asks) and, with many networks, only the strangers' pool: the sites the owner
    /// allowed and the owner still open pickers.
    @Test func strangersCannotTakeTheSlotsOfAllowedSitesOrTheOwner() async throws {
        let directory = TemporaryDirectory("cameraroll-server")
        let live = try LiveServer(
            directory, library: try Library(folder: DataFolder(directory.path)),
            forwardedFor: ForwardedFor(proxies: [IPAddress("127.0.0.1")!]))
        func create(from address: String, _ headers: [String: String] = [:]) async throws -> Int {
            let all = headers.merging(["X-Forwarded-For": address]) { $1 }
            return try await live.request("POST", "/api/picker/sessions", body: Data("{}".utf8), headers: all).status
        }
        var fromOneNetwork: [Int] = []
        for host in 1...52 { fromOneNetwork.append(try await create(from: "2001:db8:0:7::\(String(host, radix: 16))")) }
        #expect(fromOneNetwork.filter { $0 == 201 }.count == 10 && fromOneNetwork.filter { $0 == 429 }.count == 42)
        var strangers: [Int: Int] = [:]
        for network in 0..<40 {
            for host in 1...10 { strangers[try await create(from: "2001:db8:1:\(String(network, radix: 16))::\(host)"), default: 0] += 1 }
        }
        #expect(strangers == [201: 290, 429: 110], "the strangers' pool is full")

        try await AllowedApps(dataFolder: URL(fileURLWithPath: directory.path)).add(
            try WebOrigin("https://blog.example"), name: "Blog", owner: 1)
        let blog = ["Origin": "https://blog.example"]
        #expect(try await create(from: "198.51.100.7", blog) == 201, "an allowed site's visitor")
        #expect(try await create(from: "198.51.100.8") == 429, "another stranger")
        let owner = try await live.request("POST", "/api/picker/sessions", body: Data("{}".utf8))
        #expect(owner.status == 201, "the owner, on this computer")
    }
}
