import Foundation
import UTCTime

/// A probe's result together with the stream choices that later ffmpeg runs must repeat.
package struct ProbedVideo: Sendable {
    package var info: VideoInfo
    var videoStreamIndex: Int
    var audioStreamIndex: Int?

    /// Reads the probe, or nil when it holds no usable video stream. `duration` comes from
    /// `declaredDuration` or, when that is not believable, from the packets.
    package init?(_ output: ProbeOutput, container: ContainerFormat, duration: Double) {
        guard let video = output.videoStream, let width = video.width, let height = video.height,
            width > 0, height > 0, let codec = video.codecName, duration > 0, duration <= Self.maximumDuration
        else { return nil }
        let audio = output.audioStream
        let audioCodecs = (output.streams ?? []).filter { $0.codecType == "audio" }
            .map { $0.codecName ?? "unknown" }
        let rotation = Self.clockwiseRotation(video)
        let turnsSideways = rotation == 90 || rotation == 270
        info = VideoInfo(
            container: container, videoCodec: codec, audioCodec: audio?.codecName,
            hasAudio: audio != nil, duration: duration,
            width: turnsSideways ? height : width, height: turnsSideways ? width : height,
            rotation: rotation, pixelFormat: video.pixFmt,
            creationDate: Self.creationDate(
                output.format?.tags?["creation_time"] ?? video.tags?["creation_time"]),
            isBrowserPlayable: Playability.isBrowserPlayable(
                container: container, videoCodec: codec, pixelFormat: video.pixFmt, audioCodecs: audioCodecs,
                declaresDuration: Self.declaredDuration(output) != nil),
            contentIdentifier: output.format?.tags?["com.apple.quicktime.content.identifier"],
            captureFrameRate: Self.frameRate(output.format?.tags?["com.android.capture.fps"]) ?? Self.frameRate(video.avgFrameRate))
        let tags = output.format?.tags
        if let position = (tags?["com.apple.quicktime.location.ISO6709"] ?? tags?["location"]).flatMap(ISO6709.position) {
            (info.latitude, info.longitude) = position
        }
        videoStreamIndex = video.index
        audioStreamIndex = audio?.index
    }

    /// Whether the playable rendition is a copy of the video (`Playability.isRemuxable`). Not
    /// for a movie stored sideways: renditions are upright in their pixels, and a copy would
    /// keep the rotation as a flag.
    var isRemuxable: Bool {
        info.rotation == 0 && Playability.isRemuxable(videoCodec: info.videoCodec, pixelFormat: info.pixelFormat)
    }

    /// The duration the container declares, when it is believable.
    ///
    /// Browser MediaRecorder WebM declares none, and fragmented MP4 can declare absurd ones
    /// (143165 s for a one-second clip); those are measured from the packets instead.
    package static func declaredDuration(_ output: ProbeOutput) -> Double? {
        let declared =
            output.format?.duration.flatMap(Double.init)
            ?? output.videoStream?.duration.flatMap(Double.init)
        guard let declared, declared.isFinite, declared > 0, declared <= maximumDuration else { return nil }
        if let size = output.format?.size.flatMap(Double.init), size > 0,
            declared > size / minimumBytesPerSecond
        {
            return nil
        }
        return declared
    }

    /// A frame rate written as a number (`240.000000`) or a fraction (`30000/1001`); nil for
    /// `0/0` and for rates no camera records (above 10,000 a second).
    static func frameRate(_ text: String?) -> Double? {
        guard let text, text.utf8.count <= 64 else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let numerator = Double(parts[0]) else { return nil }
        let denominator = parts.count == 2 ? Double(parts[1]) : 1
        guard let denominator, denominator > 0 else { return nil }
        let rate = numerator / denominator
        guard rate.isFinite, rate > 0, rate <= 10_000 else { return nil }
        return rate
    }

    /// No camera roll holds a day-long recording; a longer claim is a broken header.
    static let maximumDuration: Double = 24 * 60 * 60
    /// A tenth of 1 kbit/s, already ten times below the leanest real video: a file whose declared
    /// duration implies less than this per second declares a wrong duration.
    static let minimumBytesPerSecond: Double = 12.5

    /// ffprobe gives the display matrix in counter-clockwise degrees (-90 means "turn 90°
    /// clockwise to display"); the legacy `rotate` tag is already clockwise.
    static func clockwiseRotation(_ stream: ProbeOutput.Stream) -> Int {
        let degrees: Double
        if let counterClockwise = stream.sideDataList?.lazy.compactMap(\.rotation).first {
            degrees = -counterClockwise
        } else if let tag = stream.tags?["rotate"].flatMap(Double.init) {
            degrees = tag
        } else {
            return 0
        }
        guard degrees.isFinite else { return 0 }
        // Reduced while still a Double: a crafted file's 1e33 degrees is finite and no Int.
        let quarterTurns = Int((degrees / 90).rounded().truncatingRemainder(dividingBy: 4))
        return (quarterTurns + 4) % 4 * 90
    }

    /// Normalises ffmpeg's `2023-03-16T15:26:24.000000Z` (or a time with an offset, `+02:00`) to
    /// whole seconds in UTC. Dates before 1971 are the zero of some clock (MP4's 1904, Unix's 1970)
    /// written by devices that did not know the time, so they are dropped rather than shown. Read
    /// by our own code, not ICU's date parser, which a crafted tag's hundred-digit fraction made
    /// divide by zero (probe-output).
    static func creationDate(_ tag: String?) -> String? {
        guard let tag, let seconds = WrittenMoment.secondsSince1970(zoned: tag), seconds >= 365 * 24 * 60 * 60 else { return nil }
        return UTCTime(Date(timeIntervalSince1970: TimeInterval(seconds))).iso8601()
    }
}
