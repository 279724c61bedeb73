import Foundation
import Testing

@testable import Video

@Suite struct ProbedVideoTests {
    @Test func frameRatesReadAsNumbersOrFractionsWithinACamerasRange() {
        #expect(ProbedVideo.frameRate("240.000000") == 240)
        #expect(ProbedVideo.frameRate("30000/1001").map { abs($0 - 29.97) < 0.01 } == true)
        for unknown in ["0/0", "1/0", "-30/1", "nan", "inf", "1e309", "30/1/1", "", "30/", "20000/1", nil] {
            #expect(ProbedVideo.frameRate(unknown) == nil, "\(unknown ?? "nil")")
        }
    }

    @Test func positionsReadInEachOfISO6709sForms() throws {
        let close = { (found: (latitude: Double, longitude: Double)?, latitude: Double, longitude: Double) in
            found.map { abs($0.latitude - latitude) < 1e-9 && abs($0.longitude - longitude) < 1e-9 } == true
        }
        #expect(close(ISO6709.position("+52.2097-000.8955+103.640/"), 52.2097, -0.8955), "an iPhone's, with its altitude")
        #expect(close(ISO6709.position("+40.680-074.500/"), 40.68, -74.5), "Android's")
        #expect(close(ISO6709.position("-33.8568+151.2153"), -33.8568, 151.2153), "without its closing slash")
        #expect(close(ISO6709.position("+5212.582-00053.730/"), 52 + 12.582 / 60, -(53.73 / 60)), "degrees and minutes")
        let (north, west): (Double, Double) = (52 + 12.0 / 60 + 34.5 / 3600, 53.0 / 60 + 43.8 / 3600)
        #expect(close(ISO6709.position("+521234.5-0005343.8/"), north, -west), "and seconds")
        #expect(close(ISO6709.position("+90-180/"), 90, -180))
        for refused in [
            "", "/", "+52.2", "52.2097-000.8955/", "+91.0+000.0/", "+52.0+180.5/", "+5260.0+00000.0/", "+520060+0000000/",
            "+52.2097-000.8955+103.640CRSWGS_84/", "+52.2097-000.8955+1+2/", "+5.2097-000.8955/", "+52.2097-00.8955/",
            "+52.-000.8955/", "+52.2097--000.8955/", "+52.2097-000.8955/x", "+٥٢.2097-000.8955/", "+52.2097 -000.8955/",
        ] {
            #expect(ISO6709.position(refused) == nil, "\(refused.debugDescription)")
        }
    }

    private func output(_ json: String) throws -> ProbeOutput {
        try JSONDecoder().decode(ProbeOutput.self, from: Data(json.utf8))
    }

    private func videoStream(_ extra: String) throws -> ProbeOutput.Stream {
        let json = #"{"streams": [{"index": 0, "codec_type": "video", "codec_name": "h264"\#(extra)}]}"#
        return try #require(try output(json).streams?.first)
    }

    private func displayMatrix(_ degrees: Double) -> String {
        #", "side_data_list": [{"side_data_type": "Display Matrix", "rotation": \#(degrees)}]"#
    }

    @Test(arguments: [
        (-90.0, 90), (90.0, 270), (-180.0, 180), (180.0, 180), (0.0, 0), (270.0, 90), (-270.0, 270),
        (89.6, 270),
    ])
    func displayMatrixIsCounterClockwise(_ matrix: Double, _ clockwise: Int) throws {
        #expect(ProbedVideo.clockwiseRotation(try videoStream(displayMatrix(matrix))) == clockwise)
    }

    /// A crafted file's display matrix may say any finite number of degrees (the fuzzer's 9e32
    /// trapped converting it to Int): still a quarter turn, and never a crash.
    @Test(arguments: [9.1e32, -9.1e32, 1.7e308, -1.7e308, 450.0 + 4e15 * 360])
    func hugeRotationsAreQuarterTurns(_ degrees: Double) throws {
        #expect([0, 90, 180, 270].contains(ProbedVideo.clockwiseRotation(try videoStream(displayMatrix(degrees)))))
        #expect([0, 90, 180, 270].contains(ProbedVideo.clockwiseRotation(try videoStream(#", "tags": {"rotate": "\#(degrees)"}"#))))
    }

    @Test func legacyRotateTagIsClockwise() throws {
        #expect(ProbedVideo.clockwiseRotation(try videoStream(#", "tags": {"rotate": "90"}"#)) == 90)
        #expect(ProbedVideo.clockwiseRotation(try videoStream(#", "tags": {"rotate": "x"}"#)) == 0)
        #expect(ProbedVideo.clockwiseRotation(try videoStream("")) == 0)
    }

    @Test func implausibleDurationsAreNotBelieved() throws {
        func declared(_ duration: String, size: String) throws -> Double? {
            let json = #"{"format": {"duration": "\#(duration)", "size": "\#(size)"}}"#
            return ProbedVideo.declaredDuration(try output(json))
        }
        #expect(try declared("1.024", size: "101674") == 1.024)
        #expect(try declared("143165.643233", size: "106093") == nil)
        #expect(try declared("90000", size: "900000000000") == nil)
        #expect(try declared("0", size: "1000") == nil)
        #expect(try declared("-3", size: "1000") == nil)
        #expect(try declared("N/A", size: "1000") == nil)
    }

    @Test func streamDurationIsTheFallback() throws {
        let probe = try output(
            #"""
            {"streams": [{"index": 0, "codec_type": "video", "codec_name": "vp8", "duration": "2.5"}],
             "format": {"size": "50000"}}
            """#)
        #expect(ProbedVideo.declaredDuration(probe) == 2.5)
    }

    @Test func creationDatesAreNormalised() {
        #expect(ProbedVideo.creationDate("2023-03-16T15:26:24.000000Z") == "2023-03-16T15:26:24Z")
        #expect(ProbedVideo.creationDate("2019-01-24T08:01:24Z") == "2019-01-24T08:01:24Z")
        #expect(ProbedVideo.creationDate("1970-01-01T00:00:00.000000Z") == nil)
        #expect(ProbedVideo.creationDate("1904-01-01T00:00:00Z") == nil)
        #expect(ProbedVideo.creationDate("2023-03-16T15:26:24+02:00") == "2023-03-16T13:26:24Z")
        #expect(ProbedVideo.creationDate("2023-12-31T23:30:00-01:00") == "2024-01-01T00:30:00Z")
        for damaged in ["2023-02-30T10:00:00Z", "2023-03-16T15:26:24", "2023-03-16 15:26:24Z", "2023-03-16T15:26:24+2:00", "", "Z"] {
            #expect(ProbedVideo.creationDate(damaged) == nil, "\(damaged)")
        }
        // What fuzzing found (probe-output): a fraction of a hundred digits, then more, made ICU's
        // date parser divide by zero and end the process.
        let crafted = "1011-09-22T16:34:05.000000" + String(repeating: "7", count: 90) + "-22T18:34:0u+200"
        #expect(ProbedVideo.creationDate(crafted) == nil)
        #expect(ProbedVideo.creationDate("2023-03-16T15:26:24." + String(repeating: "9", count: 100) + "Z") == "2023-03-16T15:26:24Z")
        #expect(ProbedVideo.creationDate("yesterday") == nil)
        #expect(ProbedVideo.creationDate(nil) == nil)
    }

    @Test func coverArtIsNotTheVideo() throws {
        let probe = try output(
            #"""
            {"streams": [
              {"index": 0, "codec_type": "video", "codec_name": "mjpeg", "width": 600, "height": 600,
               "disposition": {"default": 0, "attached_pic": 1}},
              {"index": 1, "codec_type": "video", "codec_name": "h264", "width": 1920, "height": 1080,
               "disposition": {"default": 0, "attached_pic": 0}},
              {"index": 2, "codec_type": "video", "codec_name": "h264", "width": 1280, "height": 720,
               "disposition": {"default": 1, "attached_pic": 0}},
              {"index": 3, "codec_type": "audio", "codec_name": "unknown"},
              {"index": 4, "codec_type": "audio", "codec_name": "aac"}
            ], "format": {"duration": "3.0", "size": "1000000"}}
            """#)
        let video = try #require(ProbedVideo(probe, container: .mp4, duration: 3))
        #expect(video.videoStreamIndex == 2 && video.info.width == 1280)
        #expect(video.audioStreamIndex == 4 && video.info.audioCodec == "aac")
        // The undecodable track still counts against playing the original as is.
        #expect(!video.info.isBrowserPlayable)
    }

    @Test func noVideoStreamIsNoVideo() throws {
        let probe = try output(
            #"{"streams": [{"index": 0, "codec_type": "subtitle"}], "format": {"duration": "5"}}"#)
        #expect(ProbedVideo(probe, container: .avi, duration: 5) == nil)
    }
}
