import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Video

/// Collects progress reports, which arrive on a background thread.
private final class ProgressLog: Sendable {
    private let values = Mutex<[Double]>([])
    func record(_ value: Double) { values.withLock { $0.append(value) } }
    var all: [Double] { values.withLock { $0 } }
}

@Suite struct RenditionTests {
    @Test func hevcBecomesUprightPlayableH264() async throws {
        let source = Corpus.path("videos/photoprism__quicktime-hvc1.mov")
        let original = try await Fixture.tools.probe(source, format: .mp4)
        let folder = TemporaryDirectory()
        let output = folder.file("playable.mp4")
        let log = ProgressLog()
        try await Fixture.tools.makePlayable(source, format: .mp4, to: output, progress: log.record)

        let rendition = try await Fixture.tools.probe(output, format: .mp4)
        #expect(rendition.videoCodec == "h264" && rendition.audioCodec == "aac")
        #expect(rendition.isBrowserPlayable)
        #expect(rendition.rotation == 0)
        #expect(rendition.width == original.width && rendition.height == original.height)
        #expect(abs(rendition.duration - original.duration) < 0.15)

        let reports = log.all
        #expect(reports.last == 1.0)
        #expect(reports == reports.sorted())
        #expect(reports.allSatisfy { (0...1).contains($0) })
    }

    /// The MD5 of a file's video packets as ffmpeg reads them.
    private func videoPacketsHash(_ path: String) async throws -> String {
        try await Executable.run(program: "/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-c", "copy", "-f", "md5", "-"])
            .stdout
    }

    /// H.264 in Matroska and in AVI: the video copied into the MP4 packet for packet (the AVI's
    /// sound copied too, AAC), in far less time than encoding would take.
    @Test(arguments: [("videos/pigallery2__video_mkv.mkv", ContainerFormat.matroska), ("videos/photoprism__earth.avi", .avi)])
    func h264InAnotherContainerIsCopiedIntoAnMP4(_ file: String, _ format: ContainerFormat) async throws {
        let source = Corpus.path(file)
        let original = try await Fixture.tools.probe(source, format: format)
        let folder = TemporaryDirectory()
        let output = folder.file("playable.mp4")
        try await Fixture.tools.makePlayable(source, format: format, to: output)
        let rendition = try await Fixture.tools.probe(output, format: .mp4)
        #expect(rendition.isBrowserPlayable && rendition.videoCodec == "h264" && rendition.audioCodec == "aac")
        #expect(rendition.width == original.width && rendition.height == original.height)
        #expect(abs(rendition.duration - original.duration) < 0.15)
        if format == .matroska {
            // Both store H.264 length-prefixed, so a copy is the same packets.
            #expect(try await videoPacketsHash(output) == (try await videoPacketsHash(source)))
        }
    }

    /// What ffprobe reads in the rendition made of `file`.
    static func rendition(of file: String, format: ContainerFormat) async throws -> VideoInfo {
        let folder = TemporaryDirectory()
        let output = folder.file("playable.mp4")
        try await Fixture.tools.makePlayable(Corpus.path(file), format: format, to: output)
        return try await Fixture.tools.probe(output, format: .mp4)
    }

    @Test func silentSourceGetsNoAudioTrack() async throws {
        let rendition = try await Self.rendition(of: "videos/androidx-media__bear-vp9.webm", format: .matroska)
        #expect(rendition.videoCodec == "h264" && !rendition.hasAudio)
        #expect(rendition.width == 320 && rendition.height == 240)
    }

    @Test func rotatedSourceIsTurnedUprightInThePixels() async throws {
        let rendition = try await Self.rendition(of: "videos/mp4parse__video_rotation_90.mp4", format: .mp4)
        #expect(rendition.width == 60 && rendition.height == 100 && rendition.rotation == 0)
    }

    @Test func trimIsFrameAccurate() async throws {
        let source = Corpus.path("videos/pigallery2__video_rotate.mp4")
        let folder = TemporaryDirectory()
        let output = folder.file("trimmed.mp4")
        let log = ProgressLog()
        try await Fixture.tools.trim(source, format: .mp4, start: 2, end: 5, to: output, progress: log.record)
        let trimmed = try await Fixture.tools.probe(output, format: .mp4)
        #expect(abs(trimmed.duration - 3.0) <= 0.15)
        #expect(trimmed.rotation == 0 && trimmed.width == 60 && trimmed.height == 80)
        #expect(trimmed.isBrowserPlayable)
        #expect(log.all.last == 1.0)
    }

    @Test(arguments: [(5.0, 2.0), (-1.0, 2.0), (2.0, 2.0), (2.0, 100.0), (0.0, Double.nan), (20.0, 30.0)])
    func trimRangeOutsideTheVideoIsInvalid(_ start: Double, _ end: Double) async {
        let code = await Self.failureLeavingNoOutput("trimmed.mp4") { output async throws(VideoError) in
            try await Fixture.tools.trim(
                Corpus.path("videos/pigallery2__video_rotate.mp4"), format: .mp4, start: start, end: end, to: output)
        }
        #expect(code == .invalidRequest)
    }

    @Test(arguments: [
        (Duration.milliseconds(1), "videos/photoprism__quicktime-hvc1.mov"),
        // Probing takes a few hundredths of a second, encoding 4K frames seconds: the deadline
        // lands in the middle of ffmpeg writing the file, and the partial file goes too.
        (.milliseconds(700), "videos/androidx-media__portrait_4k60.mp4"),
    ])
    func timeoutStopsTheJobAndLeavesNoOutput(after timeout: Duration, video: String) async {
        let tools = VideoTools(timeout: timeout, timeoutPerVideoSecond: .zero)
        let code = await Self.failureLeavingNoOutput("playable.mp4") { output async throws(VideoError) in
            try await tools.makePlayable(Corpus.path(video), format: .mp4, to: output)
        }
        #expect(code == .timeout)
    }

    /// The limit grows with the movie, so that a long one is not stopped at the limit of a
    /// short one (the tests above show the limit is kept).
    @Test func aRenditionHasTimeForEachSecondOfItsVideo() {
        let tools = VideoTools(timeout: .seconds(2), timeoutPerVideoSecond: .seconds(3))
        #expect(tools.limit(forVideoSeconds: 300) == .seconds(902))
        #expect(tools.limit(forVideoSeconds: 0) == .seconds(2) && tools.limit(forVideoSeconds: -5) == .seconds(2))
        #expect(tools.limit(forVideoSeconds: .infinity) == .seconds(2))
    }

    @Test func undecodableVideoIsCorruptAndLeavesNoOutput() async throws {
        let code = await Self.failureLeavingNoOutput("playable.mp4") { output async throws(VideoError) in
            try await Fixture.tools.makePlayable(
                Corpus.path("bad/androidx-media__invalid-bitstream.webm"), format: .matroska, to: output)
        }
        #expect(code == .corrupt)
    }

    /// What `make` fails with when it writes to `name` in a new folder, expecting it to leave
    /// nothing there, whole or partial.
    static func failureLeavingNoOutput(
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (_ output: String) async throws(VideoError) -> Void
    ) async -> VideoError.Code? {
        let folder = TemporaryDirectory()
        let output = folder.file(name)
        let code = await Fixture.errorCode { () async throws(VideoError) in try await make(output) }
        #expect(!FileManager.default.fileExists(atPath: output), "\(name) is left", sourceLocation: sourceLocation)
        return code
    }
}
