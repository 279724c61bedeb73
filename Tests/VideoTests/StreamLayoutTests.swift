import Testing

@testable import Video

@Suite struct StreamLayoutTests {
    @Test(arguments: [
        // Landscape and portrait 1080p and 4K fit 1280x720 either way up.
        (1920, 1080, 1280, 720), (1080, 1920, 720, 1280), (3840, 2160, 1280, 720),
        // Never enlarged; odd sides made even.
        (640, 360, 640, 360), (176, 144, 176, 144), (1001, 501, 1000, 500),
        // A wide panorama is bound by its long side.
        (4000, 1000, 1280, 320),
    ])
    func theFrameFitsIn720p(_ size: (Int, Int, Int, Int)) {
        let fitted = StreamLayout.fitted(width: size.0, height: size.1)
        #expect(fitted == (size.2, size.3))
    }

    /// A duration stored before durations were held to a day is held to it here.
    @Test func aDurationPastADayIsADaysSegments() {
        let layout = StreamLayout(duration: 2e19, hasAudio: false, width: 2, height: 2)
        #expect(layout.segmentCount == Int((ProbedVideo.maximumDuration / StreamLayout.segmentSeconds).rounded(.up)))
    }

    @Test func segmentsCoverTheMovieAndNothingPastIt() throws {
        let layout = StreamLayout(duration: 5.5, hasAudio: false, width: 2, height: 2)
        #expect(layout.segmentCount == 3)
        #expect(layout.codecs == "avc1.640028")
        #expect(layout.segment(0)! == (0, 2))
        let last = try #require(layout.segment(2))
        #expect(last.start == 4 && abs(last.length - 1.5) < 1e-9)
        #expect(layout.segment(3) == nil && layout.segment(-1) == nil)
        // A movie shorter than a segment is one segment.
        #expect(StreamLayout(duration: 0.4, hasAudio: true, width: 2, height: 2).segmentCount == 1)
    }
}
