import Foundation
import TestSupport
import Testing

/// What a pick's links give under the export preset, read back by ffprobe from what the live
/// server serves.
extension PickerSessionTests {
    /// UIKit's compatible export of a movie is an H.264/AAC MP4 whatever the original is: a VP9
    /// WebM, which browsers play as it is, comes to the caller as an MP4 all the same, and the
    /// metadata names the type the link serves; `current` gives the WebM itself, and a trimmed
    /// clip of it is an MP4 whatever the preset.
    @Test func aCompatibleMovieIsAnH264MP4() async throws {
        let live = try LiveServer()
        let file = "videos/androidx-media__bear-vp9.webm"
        let webm = try #require(try await live.upload(file).json["id"] as? String)

        let compatible = try await chosen(live, webm, in: #"{"mediaTypes":["public.movie"]}"#)
        let url = try #require(compatible["mediaURL"] as? String)
        #expect(url.hasPrefix("/media/\(webm)/compatible?cap="))
        #expect((compatible["metadata"] as? [String: String])?["mimeType"] == "video/mp4")
        let reply = try await live.get(url)
        #expect(reply.status == 200 && reply.header("Content-Type") == "video/mp4")
        let directory = TemporaryDirectory()
        try reply.body.write(to: URL(fileURLWithPath: directory.file("picked")))
        let probe = try await Executable.run(
            program: "/usr/bin/ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_type,codec_name:format=format_name", "-of", "json", directory.file("picked")])
        let probed = try #require(try JSONSerialization.jsonObject(with: probe.output) as? [String: Any])
        let streams = try #require(probed["streams"] as? [[String: Any]])
        #expect(streams.filter { $0["codec_type"] as? String == "video" }.map { $0["codec_name"] as? String } == ["h264"])
        #expect(streams.allSatisfy { $0["codec_type"] as? String != "audio" || $0["codec_name"] as? String == "aac" })
        #expect(((probed["format"] as? [String: Any])?["format_name"] as? String)?.contains("mp4") == true, "\(probe.stdout)")

        let current = try await chosen(live, webm, in: #"{"mediaTypes":["public.movie"],"exportPreset":"current"}"#)
        let original = try #require(current["mediaURL"] as? String)
        #expect(original.hasPrefix("/media/\(webm)/original?cap="))
        #expect((current["metadata"] as? [String: String])?["mimeType"] == "video/webm")
        #expect(try await live.get(original).body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))))

        let trimmed = try await pick(live, webm, edit: #"{"trim":{"start":0,"end":0.5}}"#)
        #expect((trimmed["mediaURL"] as? String)?.hasPrefix("/media/\(webm)/trimmed?cap=") == true)
        #expect((trimmed["metadata"] as? [String: String])?["mimeType"] == "video/mp4", "a clip is cut into an MP4")
    }
}
