import Foundation
import TestSupport
import Testing

/// Privacy per pick through the live server: what exiftool (Debian's) reads in what a pick's
/// links serve when the pick removes captions or the location.
extension PickerSessionTests {
    /// What exiftool finds in `asset` picked as an image without its `part` ("captions" or
    /// "location"): a JPEG, served from a link of its own.
    func tagsPicked(_ live: LiveServer, _ asset: String, without part: String) async throws -> [String: Any] {
        let info = try await chosen(live, asset, in: #"{"mediaTypes":["public.image"],"remove\#(part.capitalized)":true}"#)
        let url = try #require(info["originalImage"] as? String)
        #expect(url.hasPrefix("/media/\(asset)/without/\(part)?cap="))
        #expect((info["metadata"] as? [String: String])?["mimeType"] == "image/jpeg")
        let picked = try await tags(live, url)
        #expect(picked["File:FileType"] as? String == "JPEG")
        return picked
    }

    /// A JPEG picked without its captions has none that exiftool finds, in EXIF, XMP, IPTC or the
    /// JPEG comment, while the rest of it (the camera) stays; the library's original keeps them.
    @Test func aPickWithoutCaptionsHasNoneThatExiftoolFinds() async throws {
        let live = try LiveServer()
        let photo = try #require(try await live.upload("bad/payloads__payload_in_all_known_metadata.jpg").json["id"] as? String)
        let captions = [
            "IFD0:ImageDescription", "IFD0:XPTitle", "IFD0:XPComment", "File:Comment", "IPTC:Caption-Abstract", "XMP-dc:Description",
        ]

        let owners = try #require(try await chosen(live, photo, in: #"{"mediaTypes":["public.image"]}"#)["originalImage"] as? String)
        let original = try await tags(live, owners)
        for caption in captions { #expect((original[caption] as? String)?.contains("<script>") == true, "the payload has \(caption)") }

        let picked = try await tagsPicked(live, photo, without: "captions")
        // EXIF's are zeroed where they stand (every other byte of the file is kept), so exiftool
        // may still list them, empty; the others go whole.
        for caption in captions { #expect((picked[caption] as? String ?? "").isEmpty, "\(caption) is gone: \(picked[caption] ?? "")") }
        #expect(picked["IFD0:Make"] as? String == original["IFD0:Make"] as? String, "a camera is no caption")
        #expect((try await tags(live, owners)["IFD0:ImageDescription"] as? String)?.contains("<script>") == true, "the original keeps it")
    }

    /// A HEIC (no JPEG to redact in place) picked without its location comes as its compatible
    /// JPEG, in which exiftool finds no GPS at all.
    @Test func aHEICPickedWithoutItsLocationHasNoGPS() async throws {
        let live = try LiveServer()
        let heic = try #require(try await live.upload("photos/pigallery2__IMG_7943.HEIC").json["id"] as? String)
        let asIs = try await chosen(live, heic, in: #"{"mediaTypes":["public.image"],"exportPreset":"current"}"#)
        #expect(try await tags(live, try #require(asIs["originalImage"] as? String))["GPS:GPSLatitude"] != nil, "the HEIC has a location")

        let picked = try await tagsPicked(live, heic, without: "location")
        #expect(!picked.keys.contains { $0.hasPrefix("GPS:") || $0.contains(":GPS") }, "no location: \(picked.keys.sorted())")
    }
}
