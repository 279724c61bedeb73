import Testing

@testable import Video

@Suite struct PlayabilityTests {
    private func playable(
        _ container: ContainerFormat, _ video: String, _ pixels: String?, _ audio: [String] = []
    ) -> Bool {
        Playability.isBrowserPlayable(
            container: container, videoCodec: video, pixelFormat: pixels, audioCodecs: audio)
    }

    @Test func mp4NeedsEightBitH264AndBrowserAudio() {
        #expect(playable(.mp4, "h264", "yuv420p", ["aac"]))
        #expect(playable(.mp4, "h264", "yuvj420p"))
        #expect(playable(.mp4, "h264", "yuv420p", ["mp3"]))
        #expect(!playable(.mp4, "h264", "yuv420p10le"))
        #expect(!playable(.mp4, "h264", "yuv422p"))
        #expect(!playable(.mp4, "h264", nil))
        #expect(!playable(.mp4, "hevc", "yuv420p"))
        #expect(!playable(.mp4, "h263", "yuv420p"))
        #expect(!playable(.mp4, "h264", "yuv420p", ["pcm_s16le"]))
        #expect(!playable(.mp4, "h264", "yuv420p", ["aac", "unknown"]))
        #expect(!playable(.mp4, "vp9", "yuv420p"))
    }

    @Test func matroskaNeedsWebMCodecs() {
        #expect(playable(.matroska, "vp8", "yuv420p", ["opus"]))
        #expect(playable(.matroska, "vp9", "yuv420p", ["vorbis"]))
        #expect(!playable(.matroska, "vp9", "yuv420p10le"))
        #expect(!playable(.matroska, "h264", "yuv420p", ["aac"]))
        #expect(!playable(.matroska, "vp8", "yuv420p", ["aac"]))
    }

    @Test func aWebMThatDeclaresNoDurationIsNotPlayedAsItIs() {
        #expect(
            !Playability.isBrowserPlayable(
                container: .matroska, videoCodec: "vp9", pixelFormat: "yuv420p", audioCodecs: ["opus"], declaresDuration: false))
        #expect(
            Playability.isBrowserPlayable(
                container: .mp4, videoCodec: "h264", pixelFormat: "yuv420p", audioCodecs: ["aac"], declaresDuration: false))
    }

    @Test func aviIsNeverPlayable() {
        #expect(!playable(.avi, "h264", "yuv420p", ["aac"]))
    }

    @Test func h264In420IsCopiedAndOtherVideoEncoded() {
        #expect(Playability.isRemuxable(videoCodec: "h264", pixelFormat: "yuv420p"))
        #expect(Playability.isRemuxable(videoCodec: "h264", pixelFormat: "yuvj420p"))
        #expect(!Playability.isRemuxable(videoCodec: "h264", pixelFormat: "yuv422p10le"))
        #expect(!Playability.isRemuxable(videoCodec: "hevc", pixelFormat: "yuv420p"))
        #expect(!Playability.isRemuxable(videoCodec: "mpeg4", pixelFormat: "yuv420p"))
        #expect(!Playability.isRemuxable(videoCodec: "h264", pixelFormat: nil))
        #expect(Playability.isPlayableInMP4(audioCodec: "aac") && Playability.isPlayableInMP4(audioCodec: "mp3"))
        #expect(!Playability.isPlayableInMP4(audioCodec: "pcm_s16le") && !Playability.isPlayableInMP4(audioCodec: nil))
    }
}
