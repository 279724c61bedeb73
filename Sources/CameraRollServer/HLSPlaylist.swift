import Foundation
import Video

/// A movie's stream as an HLS playlist, for Safari, which plays HLS itself (and, on older iPhones,
/// has no Media Source Extensions). Every segment starts at zero, so each follows a
/// discontinuity and names its own initialization (`EXT-X-MAP`): the parts of the same cached
/// segment (`StreamFile`). `carried` is the query a capability holder's request came with
/// (`cap`, `app`), repeated on every URI, which resolve against the playlist's own.
struct HLSPlaylist {
    var layout: StreamLayout
    var carried: [(name: String, value: String)]

    static let contentType = "application/vnd.apple.mpegurl"

    var text: String {
        let query = carried.map { "\($0.name)=\(Self.escaped($0.value))" }.joined(separator: "&")
        let extra = query.isEmpty ? "" : "?" + query
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7",
            "#EXT-X-TARGETDURATION:\(Int(layout.segmentDuration.rounded(.up)))",
            "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
        ]
        for index in 0..<layout.segmentCount {
            guard let (_, length) = layout.segment(index) else { break }
            if index > 0 { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXT-X-MAP:URI=\"\(StreamFile.part(index, .initialization).name)\(extra)\"")
            lines.append(String(format: "#EXTINF:%.3f,", locale: Locale(identifier: "en_US_POSIX"), length))
            lines.append(StreamFile.part(index, .media).name + extra)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A query value as a URI keeps it: letters, digits and `-._~` as they are, the rest
    /// percent-encoded (a quote would end the MAP attribute, a newline the line).
    static func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
