import Foundation
import TestSupport
import Testing
import Video

@Suite struct ProbeTests {
    private func probe(_ file: String) async throws -> VideoInfo {
        let format = try #require(Fixture.format(file))
        return try await Fixture.tools.probe(Corpus.path(file), format: format)
    }

    @Test(arguments: Fixture.videos)
    func everyCorpusVideoProbes(_ file: String) async throws {
        let info = try await probe(file)
        #expect(info.duration > 0 && info.duration < 60)
        #expect(info.width > 0 && info.height > 0)
        #expect([0, 90, 180, 270].contains(info.rotation))
        #expect(info.hasAudio == (info.audioCodec != nil))
    }

    /// A file probed lately is not probed again, until it changes.
    @Test func aFileIsProbedOnceUntilItChanges() async throws {
        let folder = TemporaryDirectory("probe-memo")
        let runs = folder.file("runs")
        let wrapper = folder.file("ffprobe")
        try "#!/bin/sh\necho run >> '\(runs)'\nexec /usr/bin/ffprobe \"$@\"\n".write(toFile: wrapper, atomically: true, encoding: .utf8)
        #expect(chmod(wrapper, 0o700) == 0)
        let movie = folder.file("movie.mp4")
        try FileManager.default.copyItem(atPath: Corpus.path("videos/androidx-media__sample.mp4"), toPath: movie)
        let tools = VideoTools(ffprobe: wrapper)
        let count = { ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count }
        let first = try await tools.probe(movie, format: .mp4)
        #expect(try await tools.probe(movie, format: .mp4) == first)
        #expect(count() == 1)
        try FileManager.default.removeItem(atPath: movie)
        try FileManager.default.copyItem(atPath: Corpus.path("videos/androidx-media__portrait_4k60.mp4"), toPath: movie)
        #expect(try await tools.probe(movie, format: .mp4).rotation == 90)
        #expect(count() == 2)
    }

    @Test func aPhonesMovieNamesItsLivePhotoAndWhereItWasRecorded() async throws {
        #expect(try await probe("videos/lychee__train.mov").contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(try await probe("videos/pigallery2__IMG_7943_HEVC.MOV").contentIdentifier == "9B539AB8-A668-4FA6-9207-EB653A5E7E3C")
        #expect(try await probe("videos/androidx-media__portrait_4k60.mp4").contentIdentifier == nil)
        let recorded = try await probe("videos/pigallery2__IMG_7943_HEVC.MOV")
        #expect(recorded.latitude == 49.1989 && recorded.longitude == 16.6071, "where an iPhone recorded it")
        let android = try await probe("videos/androidx-media__sample.mp4")
        #expect(android.latitude == 40.68 && android.longitude == -74.5, "and an Android phone")
        #expect(try await probe("videos/androidx-media__bear-vp9.webm").latitude == nil)
    }

    /// Slow motion as phones record it: Android states the rate it captured at; other files
    /// have their stream's average rate.
    @Test func theFrameRateIsTheOneRecordedAt() async throws {
        #expect(try await probe("videos/androidx-media__sample_android_slow_motion.mp4").captureFrameRate == 240)
        #expect(try await probe("videos/androidx-media__sample_sef_slow_motion.mp4").captureFrameRate == 240)
        let plain = try #require(try await probe("videos/androidx-media__sample.mp4").captureFrameRate)
        #expect(abs(plain - 30000 / 1001) < 0.001)
        #expect(try await probe("videos/androidx-media__portrait_4k60.mp4").captureFrameRate.map { $0 > 55 && $0 < 65 } == true)
    }

    @Test func portraitPhoneVideoIsTurnedUpright() async throws {
        let info = try await probe("videos/androidx-media__portrait_4k60.mp4")
        #expect(info.rotation == 90)
        #expect(info.width == 2160 && info.height == 3840)
        #expect(info.hasAudio && info.audioCodec == "aac")
        #expect(info.creationDate == "2023-03-16T15:26:24Z")
    }

    @Test func upsideDownVideoWithoutAudio() async throws {
        let info = try await probe("videos/androidx-media__pixel7_videoOnly_cleaned.mp4")
        #expect(info.rotation == 180)
        #expect(info.width == 1920 && info.height == 1080)
        #expect(!info.hasAudio && info.audioCodec == nil)
    }

    @Test func positiveDisplayMatrixMeansCounterClockwise() async throws {
        let info = try await probe("videos/pigallery2__video_rotate.mp4")
        #expect(info.rotation == 270)
        #expect(info.width == 60 && info.height == 80)
    }

    @Test func webmVP9IsPlayable() async throws {
        let info = try await probe("videos/androidx-media__bear-vp9.webm")
        #expect(info.container == .matroska)
        #expect(info.videoCodec == "vp9")
        #expect(!info.hasAudio)
        #expect(info.isBrowserPlayable)
    }

    @Test func plainMP4IsPlayable() async throws {
        let info = try await probe("videos/androidx-media__sample.mp4")
        #expect(info.videoCodec == "h264" && info.audioCodec == "aac")
        #expect(info.width == 1080 && info.height == 720)
        #expect(info.rotation == 0)
        #expect(info.isBrowserPlayable)
        #expect(abs(info.duration - 1.024) < 0.01)
    }

    @Test func mediaRecorderWebMDurationIsMeasured() async throws {
        let info = try await probe("videos/ts-ebml__chrome57.webm")
        #expect(info.duration > 7.0 && info.duration < 8.0)
        #expect(info.videoCodec == "vp8" && info.audioCodec == "opus")
        // Without a duration it has no cues either: browsers get a rendition they can seek in.
        #expect(!info.isBrowserPlayable)
    }

    @Test func fragmentedMP4DurationIsMeasured() async throws {
        let info = try await probe("videos/androidx-media__sample_fragmented.mp4")
        #expect(info.duration > 0.5 && info.duration < 5)
    }

    @Test(arguments: [
        "videos/photoprism__earth.avi",  // AVI
        "videos/photoprism__quicktime-hvc1.mov",  // HEVC
        "videos/androidx-media__roadtrip-vp92-10bit.webm",  // 10-bit VP9
        "videos/androidx-media__bbb_176x144_128kbps_15fps_h263.3gp",  // H.263
        "videos/androidx-media__sowt-with-video.mov",  // PCM audio
        "videos/pigallery2__video_mkv.mkv",  // H.264 in Matroska is not WebM
    ])
    func notPlayableInBrowsers(_ file: String) async throws {
        #expect(try await probe(file).isBrowserPlayable == false)
    }

    @Test func undecodableAudioTrackMakesItUnplayable() async throws {
        let info = try await probe("bad/androidx-media__sample_missing_stsd.mp4")
        #expect(info.videoCodec == "h264" && !info.hasAudio)
        #expect(!info.isBrowserPlayable)
    }

    @Test func hevcIsReported() async throws {
        let info = try await probe("videos/photoprism__quicktime-hvc1.mov")
        #expect(info.videoCodec == "hevc")
        #expect(info.rotation == 90)
        #expect(info.width == 720 && info.height == 1280)
    }

    @Test func secondaryVideoTracksAreIgnored() async throws {
        let info = try await probe("videos/androidx-media__mv_with_2_top_shots.mp4")
        #expect(info.rotation == 270)
        #expect(info.width == 1080 && info.height == 1440)
    }

    @Test func missingMoovIsCorrupt() async throws {
        let file = "bad/androidx-media__sample_malformed_free_box.mp4"
        let format = try #require(Fixture.format(file))
        let error = await Fixture.error { () async throws(VideoError) in
            _ = try await Fixture.tools.probe(Corpus.path(file), format: format)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains("/") == false)
    }

    @Test func wrongForcedFormatIsCorrupt() async {
        let code = await Fixture.errorCode { () async throws(VideoError) in
            _ = try await Fixture.tools.probe(
                Corpus.path("videos/androidx-media__sample.mp4"), format: .matroska)
        }
        #expect(code == .corrupt)
    }

    /// Frames stamped past a day: the header's duration is not believed, and neither are the
    /// packets', since every later step counts in them (one stamped 1e19 s later once trapped
    /// ffmpeg's deadline, the stream's segments and a trim's name).
    @Test func framesStampedOverMoreThanADayAreCorrupt() async throws {
        let folder = TemporaryDirectory("probe")
        let movie = folder.file("late.webm")
        let made = try await Executable.run(
            program: "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1", "-output_ts_offset", "100000", "-c:v",
                "libvpx", movie,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let error = await Fixture.error { () async throws(VideoError) in _ = try await Fixture.tools.probe(movie, format: .matroska) }
        #expect(error?.code == .corrupt && error?.description.contains("more than a day") == true, "\(String(describing: error))")
    }

    @Test func missingFileIsCorrupt() async {
        let code = await Fixture.errorCode { () async throws(VideoError) in
            _ = try await Fixture.tools.probe("/nonexistent/video.mp4", format: .mp4)
        }
        #expect(code == .corrupt)
    }
}
