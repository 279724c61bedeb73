/// How a movie is cut for streaming: segments of `segmentDuration` seconds of the original's
/// timeline (the last one shorter), each an H.264 (+ AAC) fragmented MP4 of its own, made when
/// first asked for. Each starts with a keyframe and at zero: a player places segment `n` at
/// `n × segmentDuration` (Media Source Extensions' `timestampOffset`).
public struct StreamLayout: Sendable, Equatable, Encodable {
    public var duration: Double
    public var segmentDuration: Double
    public var hasAudio: Bool
    /// The output's frame size, the displayed size fitted in 1280x720 (either way up), even.
    public var width: Int
    public var height: Int
    /// Whether the whole playable file is a copy of the video, made in a fraction of a second:
    /// then a player waits for that instead of streaming.
    public var isRemux: Bool

    /// Two seconds: a segment of 1080p HEVC is decoded and encoded in about a second on two
    /// cores, so the first frame is shown within the two seconds we promise.
    public static let segmentSeconds = 2.0

    init(_ video: ProbedVideo) {
        self.init(
            duration: video.info.duration, hasAudio: video.audioStreamIndex != nil, width: video.info.width, height: video.info.height)
        isRemux = video.isRemuxable
    }

    /// - Parameters: width, height: the displayed size of the original.
    init(duration: Double, hasAudio: Bool, width: Int, height: Int) {
        self.duration = duration
        segmentDuration = Self.segmentSeconds
        self.hasAudio = hasAudio
        (self.width, self.height) = Self.fitted(width: width, height: height)
        isRemux = false
    }

    public var segmentCount: Int {
        // A duration is at most a day (`ProbedVideo.maximumDuration`); one stored before that
        // rule is held to it here, not converted past Int.
        max(1, Int((min(duration, ProbedVideo.maximumDuration) / segmentDuration).rounded(.up)))
    }

    /// The MIME codecs a player declares: H.264 High profile (the encoder's profile is forced),
    /// level 4.0, which covers 720p at 60 frames a second; AAC-LC.
    public var codecs: String { hasAudio ? "avc1.640028,mp4a.40.2" : "avc1.640028" }

    /// Start and length of segment `index` in the original's seconds, nil past the end.
    public func segment(_ index: Int) -> (start: Double, length: Double)? {
        guard index >= 0, index < segmentCount else { return nil }
        let start = Double(index) * segmentDuration
        return (start, min(segmentDuration, duration - start))
    }

    /// What a player is told (`/media/<id>/stream`): the segments are `0.mp4` up to
    /// `segmentCount - 1`, each placed at `index × segmentDuration` seconds; `codecs` is what the
    /// player declares. `remux`: the whole playable file is a copy of the video, made in a
    /// fraction of a second, better waited for.
    private enum CodingKeys: String, CodingKey {
        case duration, segmentDuration, segmentCount, codecs, width, height, remux
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duration, forKey: .duration)
        try container.encode(segmentDuration, forKey: .segmentDuration)
        try container.encode(segmentCount, forKey: .segmentCount)
        try container.encode(codecs, forKey: .codecs)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(isRemux, forKey: .remux)
    }

    /// The largest even size with the same shape whose long side is at most 1280 and short side
    /// at most 720; never larger than the original.
    static func fitted(width: Int, height: Int) -> (Int, Int) {
        let long = Double(max(width, height))
        let short = Double(min(width, height))
        let scale = min(1, 1280 / long, 720 / short)
        let even = { (side: Int) in max(2, Int((Double(side) * scale / 2).rounded(.down)) * 2) }
        return (even(width), even(height))
    }
}
