import Testing
import Video

@Suite struct ContainerFormatTests {
    @Test(arguments: Fixture.videos)
    func everyCorpusVideoSniffsToAContainer(_ file: String) {
        #expect(Fixture.format(file) != nil)
    }

    @Test func knownContainers() {
        #expect(Fixture.format("videos/androidx-media__sample.mp4") == .mp4)
        #expect(Fixture.format("videos/photoprism__quicktime-hvc1.mov") == .mp4)
        #expect(Fixture.format("videos/androidx-media__bbb_176x144_128kbps_15fps_h263.3gp") == .mp4)
        #expect(Fixture.format("videos/photoprism__christmas.mp4") == .mp4)
        #expect(Fixture.format("videos/androidx-media__bear-vp9.webm") == .matroska)
        #expect(Fixture.format("videos/pigallery2__video_mkv.mkv") == .matroska)
        #expect(Fixture.format("videos/photoprism__earth.avi") == .avi)
    }

    @Test func textPlaylistNamedAVIIsNotAVideo() {
        #expect(Fixture.format("bad/payloads__ssrf_ffmpeg.avi") == nil)
    }

    @Test func contentDecidesNotTheName() {
        // An AVI named .mp4 is read as what it is, with the AVI demuxer forced.
        #expect(Fixture.format("bad/payloads__read_passwd_bypass.mp4") == .avi)
    }

    @Test func nonVideosSniffToNil() {
        #expect(ContainerFormat.sniff([]) == nil)
        #expect(ContainerFormat.sniff([UInt8](repeating: 0, count: 64)) == nil)
        #expect(ContainerFormat.sniff(Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8)) == nil)
        #expect(ContainerFormat.sniff(Array("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n".utf8)) == nil)
        #expect(ContainerFormat.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == nil)
        #expect(ContainerFormat.sniff([0x1A, 0x45, 0xDF]) == nil)
    }

    @Test func headerlessQuickTimeIsMP4() {
        for atom in ["moov", "mdat", "wide", "free", "skip", "pnot"] {
            #expect(ContainerFormat.sniff([0, 0, 0, 8] + Array(atom.utf8)) == .mp4)
        }
    }

    @Test func demuxersAndMediaTypes() {
        #expect(ContainerFormat.mp4.ffmpegDemuxer == "mov")
        #expect(ContainerFormat.matroska.ffmpegDemuxer == "matroska")
        #expect(ContainerFormat.avi.ffmpegDemuxer == "avi")
        #expect(ContainerFormat.mp4.mimeType == "video/mp4")
        #expect(ContainerFormat.matroska.mimeType == "video/webm")
        #expect(ContainerFormat.avi.mimeType == "video/x-msvideo")
    }
}
