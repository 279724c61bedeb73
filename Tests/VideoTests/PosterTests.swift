import Foundation
import TestSupport
import Testing
import Video

@Suite struct PosterTests {
    @Test(arguments: Fixture.videos)
    func everyCorpusVideoHasAnUprightPoster(_ file: String) async throws {
        let format = try #require(Fixture.format(file))
        let folder = TemporaryDirectory()
        let output = folder.file("poster.jpg")
        try await Fixture.tools.poster(Corpus.path(file), format: format, to: output)
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(!data.isEmpty)
        #expect(JPEG.isJPEG(data))
        let info = try await Fixture.tools.probe(Corpus.path(file), format: format)
        let size = try #require(JPEG.size(data))
        #expect(size.width == info.width && size.height == info.height)
    }

    @Test func pastTheEndFallsBackToTheFirstFrame() async throws {
        let folder = TemporaryDirectory()
        let output = folder.file("poster.jpg")
        try await Fixture.tools.poster(
            Corpus.path("videos/androidx-media__sample.mp4"), format: .mp4, at: 1000, to: output)
        #expect(JPEG.isJPEG(try Data(contentsOf: URL(fileURLWithPath: output))))
    }

    @Test func laterFrame() async throws {
        let folder = TemporaryDirectory()
        let output = folder.file("poster.jpg")
        try await Fixture.tools.poster(
            Corpus.path("videos/pigallery2__video_rotate.mp4"), format: .mp4, at: 6.5, to: output)
        let size = try #require(JPEG.size(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(size.width == 60 && size.height == 80)
    }

    @Test func undecodableBitstreamIsCorruptAndLeavesNothing() async throws {
        let file = "bad/androidx-media__invalid-bitstream.webm"
        let format = try #require(Fixture.format(file))
        let folder = TemporaryDirectory()
        let output = folder.file("poster.jpg")
        let error = await Fixture.error { () async throws(VideoError) in
            try await Fixture.tools.poster(Corpus.path(file), format: format, to: output)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(folder.path) == false)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func negativeTimeIsInvalid() async {
        let code = await Fixture.errorCode { () async throws(VideoError) in
            try await Fixture.tools.poster(
                Corpus.path("videos/androidx-media__sample.mp4"), format: .mp4, at: -1, to: "/tmp/unused.jpg")
        }
        #expect(code == .invalidRequest)
    }

    @Test func unwritableOutputFailsWithoutBlamingTheVideo() async {
        let error = await Fixture.error { () async throws(VideoError) in
            try await Fixture.tools.poster(
                Corpus.path("videos/androidx-media__sample.mp4"), format: .mp4,
                to: "/nonexistent-folder/poster.jpg")
        }
        #expect(error?.code == .failed)
        #expect(error?.message.contains("nonexistent") == false)
    }
}
