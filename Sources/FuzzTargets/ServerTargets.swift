import CameraRollServer
import Foundation
import HTTPServer
import ImagePicker
import Imaging
import PhotoLibrary
import Vocabulary

extension FuzzTarget {
    static let serverTargets: [FuzzTarget] = [
        FuzzTarget(
            "edit-request", "the JSON body of an edit: a crop or a trim",
            examples: [
                #"{"cropRect": {"x": 0, "y": 8.5, "width": 100, "height": 100}}"#, #"{"trim": {"start": 0.5, "end": 2}}"#, "{}", "null",
            ]
        ) { bytes in
            withFile(bytes, suffix: ".json") { path in
                guard case .some(.some(let edit)) = try? EditRequest.parse(RequestBody(path: path, size: bytes.count)) else { return }
                require(Edit(capabilityText: edit.capabilityText) == edit, "an accepted edit can be carried by a capability URL")
                planRenders(of: edit)
            }
        },
        FuzzTarget("edit-capability", "the edit= a capability URL carries", examples: ["0,0,100,100", "0.5,1.5", "t1m,0,0,100,100", "t2"]) {
            bytes in
            guard let edit = Edit(capabilityText: text(bytes)) else { return }
            require(Edit(capabilityText: edit.capabilityText) == edit, "an edit reads back from its own text")
            planRenders(of: edit)
        },
        FuzzTarget(
            "thumbnail-batch", "the items= of a batch of thumbnails: ids, each with its edit",
            examples: ["abc;def~t1m,0,0,100,100;ghi~0,0,10,10"]
        ) { bytes in
            guard let items = ThumbnailBatch.items(text(bytes)) else { return }
            require((1...ThumbnailBatch.maxItems).contains(items.count), "a batch names 1 to its limit")
            let written = items.map { item in item.id + (item.edit.map { "~" + Edit.image($0).capabilityText } ?? "") }
            require(ThumbnailBatch.items(written.joined(separator: ";")) == items, "a batch reads back from its own spelling")
            for case let edit? in items.map(\.edit) { planRenders(of: .image(edit)) }
        },
        FuzzTarget("stream-file", "a file name under a movie's stream", examples: ["index.m3u8", "12.mp4", "3-init.mp4", "40.m4s"]) {
            bytes in
            guard let file = StreamFile(text(bytes)) else { return }
            require(StreamFile(file.name) == file, "a stream file reads back from its own name")
        },
        FuzzTarget(
            "cookie", "the Cookie header that names a sign-in session", examples: ["theme=dark; cameraroll_session=abc123; x=\"y\""]
        ) { bytes in
            let request = Request(method: "GET", path: "/", headers: Headers([("Cookie", text(bytes))]))
            if let value = Access.cookie(Access.cookie, in: request) {
                require(!value.contains(";"), "a cookie's value ends at its separator")
            }
        },
        FuzzTarget(
            "host", "the Host header a request was sent to",
            examples: ["localhost:8080", "192.168.1.2:8443", "[::1]:8080", "cameraroll.local."]
        ) { bytes in
            _ = Access.accepts(host: text(bytes), names: ["localhost", "cameraroll.local"])
        },
        FuzzTarget("display-box", "w, h, dpr and fit of a display URL", examples: ["w=320&h=240&dpr=2.5&fit=cover", "w=9000&h=1"]) {
            bytes in
            var query: [String: String] = [:]
            for pair in text(bytes).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            guard let box = try? DisplayBox(Request(method: "GET", path: "/media/x/display", query: query)) else { return }
            require(box.pixels.width >= 1 && box.pixels.height >= 1, "a box has pixels")
            require(
                box.pixels.width <= Library.maxDisplaySide && box.pixels.height <= Library.maxDisplaySide,
                "a box is within the largest side")
        },
        FuzzTarget(
            "tus-headers", "Upload-Length, Upload-Metadata and Upload-Checksum of a resumable upload (NUL between them)",
            examples: [
                "1048576\u{0}filename SU1HXzAwMDEuSlBH,source Y2FtZXJh,album\u{0}"
                    + "sha256 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
            ]
        ) { bytes in
            let fields = text(bytes).split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            if let length = try? TusHeaders.count(fields[0], "Upload-Length") { require(length >= 0, "a count is not negative") }
            if fields.count > 1, let metadata = try? TusHeaders.metadata(fields[1]) {
                let again = metadata.keys.sorted().map { "\($0) \(Data(metadata[$0]!).base64EncodedString())" }.joined(separator: ",")
                require((try? TusHeaders.metadata(again)) == metadata, "metadata reads back from its own encoding")
            }
            if fields.count > 2, case .some(.some(let checksum)) = try? TusHeaders.checksum(fields[2]) {
                switch checksum {
                case .sha1(let digest): require(digest.count == 20, "a SHA-1 has 20 bytes")
                case .sha256(let digest): require(digest.count == 32, "a SHA-256 has 32 bytes")
                }
            }
        },
        FuzzTarget(
            "picker-configuration", "a picker session's configuration, as a caller sends it",
            examples: [
                #"{"sourceType": "camera", "mediaTypes": ["public.image", "public.movie"], "allowsEditing": true}"#,
                #"{"selectionLimit": 3, "filter": {"any": ["livePhotos", {"all": ["videos", {"not": "slomoVideos"}]}]}}"#,
            ]
        ) { bytes in
            guard let configuration = try? JSONDecoder().decode(PickerConfiguration.self, from: Data(bytes)) else { return }
            let written = try? JSONEncoder().encode(configuration)
            require(
                written.flatMap { try? JSONDecoder().decode(PickerConfiguration.self, from: $0) } == configuration, "written back as read")
        },
    ]
}

/// What the server does with an edit a link or a request names, short of decoding: checks it
/// against photos and movies of awkward sizes and, where it fits one, plans every render of it
/// (a link's crop at the integers' extremes once trapped here, past a parser that read it well).
private func planRenders(of edit: Edit) {
    let sides = [(1, 1), (3, 7), (4032, 3024), (PixelNumber.largest, 2)]
    for size in sides.map({ PixelSize(width: $0, height: $1) }) {
        for mediaType in MediaType.allCases {
            guard (try? edit.validate(mediaType: mediaType, size: size, duration: 2.5)) != nil, case .image(let image) = edit else {
                continue
            }
            let source = image.reorientation.size(of: size)
            for (box, fit) in [(PixelSize(width: 256, height: 256), Fit.cover), (PixelSize(width: 16384, height: 1), .contain)] {
                let request = RenderRequest(box: box, fit: fit, crop: image.crop, encoding: .jpeg(quality: 85))
                guard let plan = try? Imaging.Plan(request, source: source) else {
                    return require(false, "an edit that fits its photo can be rendered")
                }
                require(plan.region.isInside(source) && plan.output.width <= box.width, "a render reads inside the photo")
                for orientation in 1...8 {
                    let stored = Imaging.uprightSize(source, orientation)
                    require(
                        Reorientation.storedRect(of: plan.region, orientation: orientation, storedSize: stored).isInside(stored),
                        "a region turned back lies in the stored picture")
                }
            }
        }
    }
}
