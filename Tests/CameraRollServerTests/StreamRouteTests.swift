import Foundation
import TestSupport
import Testing

/// A movie browsers cannot play, streamed while nothing else exists: its layout, its segments as
/// ffprobe reads them, the cache, and refusals, over HTTP from a live server.
@Suite struct StreamRouteTests {
    /// Five seconds of HEVC with sound in a MOV, made by ffmpeg for the test: no browser plays
    /// it as it is, and it cuts into two whole segments and a half one.
    func hevcMovie(in directory: TemporaryDirectory) async throws -> Data {
        let path = directory.file("hevc.mov")
        let made = try await Executable.run(
            program: "/usr/bin/ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=frequency=440",
                "-t", "5", "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                "-c:a", "aac", "-y", path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A live server whose library holds `hevcMovie`, the folder it was made in, and the upload's answer.
    func liveServerWithHEVCMovie() async throws -> (LiveServer, TemporaryDirectory, LiveServer.Reply) {
        let live = try LiveServer(.socket)
        let directory = TemporaryDirectory()
        let uploaded = try await live.request(
            "POST", "/api/assets", body: try await hevcMovie(in: directory), headers: ["X-Filename": "hevc.mov"])
        return (live, directory, uploaded)
    }

    /// `streams` and `format` of a file as ffprobe's JSON.
    func probe(_ data: Data, in directory: TemporaryDirectory) async throws -> [String: Any] {
        let path = directory.file("probed-\(UUID().uuidString)")
        try data.write(to: URL(fileURLWithPath: path))
        let probe = try await Executable.run(
            program: "/usr/bin/ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_type,codec_name,profile,width,height,start_time,duration", "-of", "json", path])
        return try #require(try JSONSerialization.jsonObject(with: probe.output) as? [String: Any])
    }

    @Test func anHEVCMovieIsStreamedInSegmentsOfH264() async throws {
        let (live, directory, uploaded) = try await liveServerWithHEVCMovie()
        let id = try #require(uploaded.json["id"] as? String)
        #expect(uploaded.json["browserPlayable"] as? Bool == false)

        let rendition = try await live.get("/api/assets/\(id)/rendition")
        #expect(rendition.json["status"] as? String == "notStarted")
        #expect(rendition.json["stream"] as? String == "/media/\(id)/stream")

        let layout = try await live.get("/media/\(id)/stream")
        #expect(layout.status == 200)
        #expect(layout.json["segmentCount"] as? Int == 3)
        #expect(layout.json["segmentDuration"] as? Double == 2)
        #expect(layout.json["codecs"] as? String == "avc1.640028,mp4a.40.2")
        #expect(layout.json["width"] as? Int == 640 && layout.json["height"] as? Int == 360)
        #expect(abs((layout.json["duration"] as? Double ?? 0) - 5) < 0.1)

        var segments: [Data] = []
        for (index, length) in [2.0, 2.0, 1.0].enumerated() {
            let segment = try await live.get("/media/\(id)/stream/\(index).mp4")
            #expect(segment.status == 200 && segment.header("Content-Type") == "video/mp4")
            segments.append(segment.body)
            let streams = try #require(try await probe(segment.body, in: directory)["streams"] as? [[String: Any]])
            let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
            #expect(video["codec_name"] as? String == "h264" && video["profile"] as? String == "High")
            #expect(video["width"] as? Int == 640 && video["height"] as? Int == 360)
            // Every segment starts at zero: the player places it.
            #expect(Double(video["start_time"] as? String ?? "") == 0, "segment \(index): \(video)")
            #expect(abs((Double(video["duration"] as? String ?? "") ?? 0) - length) < 0.05, "segment \(index): \(video)")
            #expect(streams.contains { $0["codec_type"] as? String == "audio" && $0["codec_name"] as? String == "aac" })
        }
        #expect(Set(segments).count == 3)

        // Made once: asked again, the cache answers with the same bytes.
        let again = try await live.get("/media/\(id)/stream/1.mp4")
        #expect(again.body == segments[1])

        let past = try await live.get("/media/\(id)/stream/3.mp4")
        #expect(past.status == 400 && past.json["code"] as? String == "invalid_request")
        for name in ["-1.mp4", "01.mp4", "1.webm", "index.m3u"] {
            #expect(try await live.get("/media/\(id)/stream/\(name)").json["code"] as? String == "not_found", "\(name)")
        }
    }

    /// Safari's way: the HLS playlist, read by ffmpeg's own HLS demuxer from the live server,
    /// gives every frame of the movie; each segment's two parts are the segment.
    @Test func theHLSPlaylistPlaysTheWholeMovie() async throws {
        let (live, directory, uploaded) = try await liveServerWithHEVCMovie()
        let id = try #require(uploaded.json["id"] as? String)

        let playlist = try await live.get("/media/\(id)/stream/index.m3u8")
        #expect(playlist.status == 200 && playlist.header("Content-Type") == "application/vnd.apple.mpegurl")
        let text = String(decoding: playlist.body, as: UTF8.self)
        #expect(text.hasPrefix("#EXTM3U\n") && text.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(
            text.components(separatedBy: "#EXT-X-MAP:URI=").count == 4 && text.components(separatedBy: "#EXT-X-DISCONTINUITY").count == 3)
        #expect(text.contains("#EXT-X-MAP:URI=\"0-init.mp4\"\n#EXTINF:2.000,\n0.m4s\n") && text.contains("#EXTINF:1.000,\n2.m4s\n"))

        let copied = directory.file("from-hls.mp4")
        let read = try await Executable.run(
            program: "/usr/bin/ffmpeg",
            ["-v", "error", "-i", live.url("/media/\(id)/stream/index.m3u8").absoluteString, "-map", "0:v", "-c", "copy", "-y", copied])
        #expect(read.status == 0, "\(read.stderr)")
        let counted = try await Executable.run(
            program: "/usr/bin/ffprobe",
            [
                "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
                copied,
            ])
        #expect(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "150", "5 s at 30 frames a second")

        let whole = try await live.get("/media/\(id)/stream/1.mp4").body
        let initialization = try await live.get("/media/\(id)/stream/1-init.mp4")
        let media = try await live.get("/media/\(id)/stream/1.m4s")
        #expect(initialization.body + media.body == whole)
        #expect(initialization.header("ETag") != media.header("ETag"))
    }

    /// The scrub strip: twenty upright frames 160 pixels wide in a row, made at import.
    @Test func aMovieHasAScrubStripOfTwentyFrames() async throws {
        let (live, directory, uploaded) = try await liveServerWithHEVCMovie()
        let id = try #require(uploaded.json["id"] as? String)
        // Made at import: the derivative cache has it before anyone asks.
        let files = FileManager.default.enumerator(atPath: live.directory.path)?.compactMap { $0 as? String } ?? []
        #expect(files.contains { $0.hasSuffix("/strip-20x160.jpg") })
        let strip = try await live.get("/media/\(id)/strip")
        #expect(strip.status == 200 && strip.header("Content-Type") == "image/jpeg")
        let size = try #require(try await probe(strip.body, in: directory)["streams"] as? [[String: Any]]).first
        #expect(size?["width"] as? Int == 3200 && size?["height"] as? Int == 90)
        // A rotated phone movie's frames are upright: taller than wide.
        let rotated = try #require(try await live.upload("videos/pigallery2__video_rotate.mp4").json["id"] as? String)
        let upright = try await probe(try await live.get("/media/\(rotated)/strip").body, in: directory)
        let frame = try #require((upright["streams"] as? [[String: Any]])?.first)
        #expect((frame["height"] as? Int ?? 0) > 160 && frame["width"] as? Int == 3200)
    }

    @Test func aPhotoHasNoStreamAndAMovieNoFrameOfWhichDecodesSaysSo() async throws {
        let live = try LiveServer()
        let photo = try #require(try await live.upload("photos/androidx-media__london.jpg").json["id"] as? String)
        let refused = try await live.get("/media/\(photo)/stream")
        #expect(refused.status == 400 && refused.json["code"] as? String == "invalid_request")
        #expect(try await live.get("/media/\(photo)/strip").status == 400)

        let movie = try await live.request(
            "POST", "/api/assets", body: try UnconvertibleMovie.bytes(), headers: ["X-Filename": "movie.mp4"])
        let id = try #require(movie.json["id"] as? String)
        let segment = try await live.get("/media/\(id)/stream/0.mp4")
        #expect(segment.status == 422, "\(segment.status) \(segment.json)")
        #expect(segment.json["code"] as? String == "corrupt")
    }
}
