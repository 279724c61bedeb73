import PhotoLibrary
import Video

/// How a movie is cut for streaming, for the player: the segments are
/// `/media/<id>/stream/0.mp4` up to `segmentCount - 1` (`StreamFile`), each placed at
/// `index × segmentDuration` seconds; `codecs` is what the player declares. `remux`: the whole
/// playable file is a copy of the video, made in a fraction of a second, better waited for.
struct StreamJSON: Encodable {
    var duration: Double
    var segmentDuration: Double
    var segmentCount: Int
    var codecs: String
    var width: Int
    var height: Int
    var remux: Bool

    init(_ layout: StreamLayout) {
        duration = layout.duration
        segmentDuration = layout.segmentDuration
        segmentCount = layout.segmentCount
        codecs = layout.codecs
        width = layout.width
        height = layout.height
        remux = layout.isRemux
    }
}
