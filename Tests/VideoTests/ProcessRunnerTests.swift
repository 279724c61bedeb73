import Foundation
import Testing

@testable import Video

@Suite struct ProcessRunnerTests {
    @Test func versionsAreParsed() async throws {
        let versions = try await Fixture.tools.versions()
        #expect(versions.ffmpeg.first?.isNumber == true)
        #expect(versions.ffprobe.first?.isNumber == true)
        #expect(!versions.ffmpeg.contains(" "))
    }

    @Test func missingToolSaysWhichAndHowToInstall() async {
        let tools = VideoTools(ffmpeg: "/nonexistent/bin/ffmpeg", ffprobe: "/nonexistent/bin/ffprobe")
        let error = await Fixture.error { () async throws(VideoError) in
            _ = try await tools.probe("/tmp/any.mp4", format: .mp4)
        }
        #expect(error?.code == .toolMissing)
        #expect(error?.message.contains("ffprobe") == true)
        #expect(error?.message.contains("make install-deps") == true)
        #expect(error?.message.contains("/nonexistent") == false)
    }

    /// A deadline is reported in the video's words.
    @Test func aDeadlineIsAVideoTimeout() async {
        let runner = ProcessRunner(timeout: .milliseconds(100))
        let code = await Fixture.errorCode { () async throws(VideoError) in
            _ = try await runner.run(.ffmpeg, executable: "/bin/sh", arguments: ["-c", "while :; do sleep 0.05; done"])
        }
        #expect(code == .timeout)
    }
}
