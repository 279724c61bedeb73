import Testing

@testable import Video

@Suite struct FFmpegArgumentsTests {
    static let input = "/library/blobs/ab/cd/abcd"

    static let poster = FFmpegArguments.poster(
        input, format: .mp4, videoStream: 1, at: 2.5, output: "/out/p.jpg")
    static let rendition = FFmpegArguments.rendition(
        input, format: .mp4, videoStream: 1, audioStream: 0, output: "/out/r.mp4")
    static let trim = FFmpegArguments.rendition(
        input, format: .mp4, videoStream: 1, audioStream: nil, range: 2...5, output: "/out/t.mp4")
    static let segment = FFmpegArguments.streamSegment(
        input, format: .mp4, videoStream: 1, audioStream: 0, start: 4, length: 2, width: 1280, height: 720, output: "/out/s.mp4")
    static let remux = FFmpegArguments.remux(input, format: .mp4, videoStream: 1, audioStream: 0, copiesAudio: false, output: "/out/m.mp4")
    static let strip = FFmpegArguments.scrubStrip(
        input, format: .mp4, videoStream: 1, duration: 10, frames: 20, width: 160, height: 90, output: "/out/s.jpg")
    static let ffmpegCommandLines = [poster, rendition, trim, segment, remux, strip]
    static let ffprobeCommandLines = [
        FFmpegArguments.probe(input, format: .mp4),
        FFmpegArguments.packetTimes(input, format: .mp4, stream: 1),
    ]

    @Test(arguments: ffmpegCommandLines + ffprobeCommandLines)
    func everyCommandLineRestrictsFormatAndProtocols(_ arguments: [String]) throws {
        #expect(arguments.contains("-hide_banner"))
        #expect(arguments.containsPair("-v", "error"))
        #expect(arguments.containsPair("-protocol_whitelist", "file"))
        #expect(arguments.containsPair("-format_whitelist", "mov"))
        let input = try #require(arguments.firstIndex(of: "file:" + Self.input))
        let forced = try #require(arguments.firstIndex(of: "-f"))
        #expect(forced < input && arguments[forced + 1] == "mov")
    }

    @Test(arguments: ffmpegCommandLines)
    func ffmpegReadsNoStdinAndWritesForcedFiles(_ arguments: [String]) throws {
        #expect(arguments.first == "-nostdin")
        let output = try #require(arguments.last)
        #expect(output.hasPrefix("file:/out/"))
        #expect(arguments.dropLast().last == "-y")
        let outputFormat = try #require(arguments.lastIndex(of: "-f"))
        #expect(["mp4", "image2"].contains(arguments[outputFormat + 1]))
    }

    @Test func renditionIsH264AACFastStartUpright() {
        let arguments = Self.rendition
        #expect(arguments.containsPair("-c:v", "libx264"))
        #expect(arguments.containsPair("-preset", "veryfast"))
        #expect(arguments.containsPair("-crf", "23"))
        #expect(arguments.containsPair("-pix_fmt", "yuv420p"))
        #expect(arguments.containsPair("-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2"))
        #expect(arguments.containsPair("-c:a", "aac") && arguments.containsPair("-b:a", "128k"))
        #expect(arguments.containsPair("-movflags", "+faststart"))
        #expect(arguments.containsPair("-map", "0:1") && arguments.containsPair("-map", "0:0"))
        #expect(arguments.containsPair("-progress", "pipe:1"))
        // Autorotation is ffmpeg's default; turning it off would leave sideways renditions.
        #expect(!arguments.contains("-noautorotate"))
    }

    @Test func aStreamSegmentIsAFragmentedMP4FromItsStartOfItsLength() throws {
        let arguments = Self.segment
        let seek = try #require(arguments.firstIndex(of: "-ss"))
        let input = try #require(arguments.firstIndex(of: "file:" + Self.input))
        #expect(seek < input && arguments[seek + 1] == "4.000000")
        #expect(arguments.containsPair("-t", "2.000000"))
        #expect(arguments.containsPair("-vf", "scale=1280:720"))
        #expect(arguments.containsPair("-profile:v", "high") && arguments.containsPair("-bf", "0"))
        #expect(arguments.containsPair("-movflags", "frag_keyframe+empty_moov+default_base_moof"))
        #expect(arguments.containsPair("-map", "0:1") && arguments.containsPair("-map", "0:0") && arguments.containsPair("-c:a", "aac"))
    }

    @Test func aRemuxCopiesTheVideoAndCopiesOrEncodesTheSound() {
        #expect(Self.remux.containsPair("-c:v", "copy") && Self.remux.containsPair("-c:a", "aac"))
        #expect(!Self.remux.contains("-vf") && !Self.remux.contains("+genpts"))
        let avi = FFmpegArguments.remux(Self.input, format: .avi, videoStream: 0, audioStream: 1, copiesAudio: true, output: "/out/a.mp4")
        #expect(avi.containsPair("-c:a", "copy") && avi.containsPair("-fflags", "+genpts"))
        let silent = FFmpegArguments.remux(
            Self.input, format: .matroska, videoStream: 0, audioStream: nil, copiesAudio: false, output: "/out/s.mp4")
        #expect(silent.contains("-an") && !silent.contains("-c:a"))
    }

    @Test func aScrubStripDecodesKeyframesOnlyIntoOneRow() throws {
        let keyframes = try #require(Self.strip.firstIndex(of: "-skip_frame"))
        let input = try #require(Self.strip.firstIndex(of: "-i"))
        #expect(Self.strip[keyframes + 1] == "nokey" && keyframes < input)
        #expect(Self.strip.containsPair("-vf", "tpad=stop_mode=clone:stop_duration=10.000000,fps=2.000000,scale=160:90,setsar=1,tile=20x1"))
        #expect(Self.strip.containsPair("-frames:v", "1") && Self.strip.containsPair("-c:v", "mjpeg"))
    }

    @Test func silentRenditionHasNoAudio() {
        #expect(Self.trim.contains("-an") && !Self.trim.contains("-c:a"))
    }

    @Test func trimSeeksOnInputAndLimitsOutput() throws {
        let seek = try #require(Self.trim.firstIndex(of: "-ss"))
        let input = try #require(Self.trim.firstIndex(of: "-i"))
        let length = try #require(Self.trim.firstIndex(of: "-t"))
        #expect(seek < input && input < length)
        #expect(Self.trim[seek + 1] == "2.000000" && Self.trim[length + 1] == "3.000000")
    }

    @Test func posterIsOneFullSizeJPEG() {
        let arguments = FFmpegArguments.poster(
            Self.input, format: .avi, videoStream: 0, at: 0, output: "/out/p%d.jpg")
        #expect(arguments.containsPair("-frames:v", "1"))
        #expect(arguments.containsPair("-c:v", "mjpeg") && arguments.containsPair("-q:v", "2"))
        #expect(arguments.containsPair("-f", "image2") && arguments.containsPair("-update", "1"))
        #expect(arguments.containsPair("-f", "avi"))
        #expect(!arguments.contains("-vf"))
        #expect(arguments.last == "file:/out/p%d.jpg")
    }

    @Test func pathsBecomeAbsoluteFileURLs() {
        #expect(FFmpegArguments.url("relative/video.mp4").hasPrefix("file:/"))
        #expect(FFmpegArguments.url("http://example.com/x.mp4").hasPrefix("file:/"))
        #expect(FFmpegArguments.url("concat:/a|/b").hasPrefix("file:/"))
        #expect(FFmpegArguments.url("/a/../b/v.mp4") == "file:/b/v.mp4")
    }

    @Test func versionQueriesReadNothing() {
        #expect(FFmpegArguments.version(.ffmpeg) == ["-nostdin", "-version"])
        #expect(FFmpegArguments.version(.ffprobe) == ["-version"])
    }
}
