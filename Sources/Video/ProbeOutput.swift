import Foundation

/// The part of `ffprobe -print_format json -show_format -show_streams` we read.
///
/// Every field is optional: ffprobe leaves out what it does not know, and a hostile file decides
/// what it knows.
package struct ProbeOutput: Decodable {
    struct Stream: Decodable {
        struct Disposition: Decodable {
            var `default`: Int?
            var attachedPic: Int?

            enum CodingKeys: String, CodingKey {
                case `default`
                case attachedPic = "attached_pic"
            }
        }

        struct SideData: Decodable {
            var rotation: Double?
        }

        var index: Int
        var codecName: String?
        var codecType: String?
        var width: Int?
        var height: Int?
        var pixFmt: String?
        /// Frames over seconds, as `30000/1001`; `0/0` when unknown.
        var avgFrameRate: String?
        var duration: String?
        var disposition: Disposition?
        var tags: [String: String]?
        var sideDataList: [SideData]?

        enum CodingKeys: String, CodingKey {
            case index
            case codecName = "codec_name"
            case codecType = "codec_type"
            case width, height
            case pixFmt = "pix_fmt"
            case avgFrameRate = "avg_frame_rate"
            case duration, disposition, tags
            case sideDataList = "side_data_list"
        }

        var isDefault: Bool { disposition?.default == 1 }
        var isAttachedPicture: Bool { disposition?.attachedPic == 1 }

        /// ffprobe calls a codec it has no decoder for "unknown" (or leaves the name out).
        var hasKnownCodec: Bool {
            guard let codecName else { return false }
            return !codecName.isEmpty && codecName != "unknown"
        }
    }

    struct Format: Decodable {
        var duration: String?
        var size: String?
        var tags: [String: String]?
    }

    var streams: [Stream]?
    var format: Format?

    /// The stream a viewer means by "the video": not cover art, the default one if several.
    var videoStream: Stream? {
        let candidates = (streams ?? []).filter { stream in
            stream.codecType == "video" && !stream.isAttachedPicture && stream.hasKnownCodec
        }
        return candidates.first(where: \.isDefault) ?? candidates.first
    }

    /// The audio stream ffmpeg would play: the default one if several, and only one it can decode,
    /// because a rendition cannot carry audio that does not decode.
    var audioStream: Stream? {
        let candidates = (streams ?? []).filter { $0.codecType == "audio" && $0.hasKnownCodec }
        return candidates.first(where: \.isDefault) ?? candidates.first
    }
}
