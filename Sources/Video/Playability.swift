/// Which originals every current browser plays without help.
///
/// Deliberately narrow: a wrong "yes" leaves a user staring at a black player, a wrong "no" only
/// costs one transcode.
enum Playability {
    /// - Parameter audioCodecs: every audio stream's codec, "unknown" for those ffmpeg cannot name:
    ///   a track the browser cannot decode can stall the whole player.
    /// - Parameter declaresDuration: whether the container says how long it is. A WebM that does
    ///   not (MediaRecorder's, streamed as it was shot) has no cues either: a browser plays it
    ///   with no duration and cannot seek in it.
    static func isBrowserPlayable(
        container: ContainerFormat, videoCodec: String, pixelFormat: String?, audioCodecs: [String], declaresDuration: Bool = true
    ) -> Bool {
        // Full-range yuvj420p is what phone cameras write; browsers play it like yuv420p.
        // Anything else (10-bit, 4:2:2, 4:4:4) fails in at least one major browser.
        guard let pixelFormat, ["yuv420p", "yuvj420p"].contains(pixelFormat) else { return false }
        switch container {
        case .mp4:
            return videoCodec == "h264" && audioCodecs.allSatisfy { ["aac", "mp3"].contains($0) }
        case .matroska:
            return declaresDuration && ["vp8", "vp9"].contains(videoCodec)
                && audioCodecs.allSatisfy { ["opus", "vorbis"].contains($0) }
        case .avi:
            return false
        }
    }

    /// Whether a playable file is made by copying the video as it is into an MP4 (a fraction of
    /// a second) rather than encoding it again: H.264 in 4:2:0 (what every browser decodes) in a
    /// container browsers do not open (Matroska, AVI), or with a sound track they cannot play.
    static func isRemuxable(videoCodec: String, pixelFormat: String?) -> Bool {
        guard let pixelFormat, ["yuv420p", "yuvj420p"].contains(pixelFormat) else { return false }
        return videoCodec == "h264"
    }

    /// Sound browsers play in an MP4, copied as it is into a remuxed file; other sound is encoded.
    static func isPlayableInMP4(audioCodec: String?) -> Bool {
        ["aac", "mp3"].contains(audioCodec ?? "")
    }
}
