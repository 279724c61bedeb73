import Foundation
import TestSupport
import Testing

@testable import Video

/// Hostile files from the corpus' bad/ folder. ffmpeg runs as a child process and strace is not
/// available, so what keeps it from following a smuggled playlist is checked in two ways: the
/// command lines carry the restrictions, and nothing the tools produce contains the secret.
@Suite struct SafetyTests {
    static let passwdPayloads = ["bad/payloads__read_passwd.avi", "bad/payloads__read_passwd_bypass.mp4"]

    @Test(arguments: passwdPayloads)
    func playlistInsideAVIIsReadAsAVIOnly(_ file: String) throws {
        let format = try #require(Fixture.format(file))
        #expect(format == .avi)
        let input = Corpus.path(file)
        for arguments in [
            FFmpegArguments.probe(input, format: format),
            FFmpegArguments.poster(input, format: format, videoStream: 0, at: 0, output: "/tmp/x.jpg"),
            FFmpegArguments.rendition(
                input, format: format, videoStream: 0, audioStream: nil, output: "/tmp/x.mp4"),
        ] {
            #expect(arguments.containsPair("-protocol_whitelist", "file"))
            #expect(arguments.containsPair("-f", "avi"))
            #expect(arguments.containsPair("-format_whitelist", "avi"))
            #expect(arguments.contains("file:" + input))
        }
    }

    @Test(arguments: passwdPayloads)
    func playlistInsideAVIDoesNotLeakPasswd(_ file: String) async throws {
        let format = try #require(Fixture.format(file))
        let folder = TemporaryDirectory()
        let output = folder.file("poster.jpg")
        let probeCode = await Fixture.errorCode { () async throws(VideoError) in
            _ = try await Fixture.tools.probe(Corpus.path(file), format: format)
        }
        let posterCode = await Fixture.errorCode { () async throws(VideoError) in
            try await Fixture.tools.poster(Corpus.path(file), format: format, to: output)
        }
        // The only stream is a "subtitle" that should have been the playlist: no video at all.
        #expect(probeCode == .corrupt)
        #expect(posterCode == .corrupt)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Every bad/ file that sniffs as a video either fails with a clean error or gives real
    /// results; none crashes us, hangs, or produces an empty poster.
    @Test(arguments: Corpus.files(in: "bad").filter { Fixture.format($0) != nil })
    func badVideosFailCleanlyOrWork(_ file: String) async throws {
        let format = try #require(Fixture.format(file))
        let folder = TemporaryDirectory()
        let output = folder.file("poster.jpg")
        let error = await Fixture.error { () async throws(VideoError) in
            let info = try await Fixture.tools.probe(Corpus.path(file), format: format)
            #expect(info.duration > 0 && info.width > 0 && info.height > 0)
            try await Fixture.tools.poster(Corpus.path(file), format: format, to: output)
        }
        if let error {
            #expect(error.code == .corrupt)
            #expect(!error.message.contains(Corpus.root.path))
        } else {
            #expect(JPEG.isJPEG(try Data(contentsOf: URL(fileURLWithPath: output))))
        }
    }
}

extension Array where Element == String {
    /// Whether `first` is immediately followed by `second` somewhere in the command line.
    func containsPair(_ first: String, _ second: String) -> Bool {
        zip(self, dropFirst()).contains { $0 == first && $1 == second }
    }
}
