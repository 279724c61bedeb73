/// What ffprobe found out about a video, reduced to what the library and the browser need.
public struct VideoInfo: Sendable, Codable, Equatable {
    public var container: ContainerFormat
    /// ffmpeg's codec name of the chosen video stream (`h264`, `hevc`, `vp9`, ...).
    public var videoCodec: String
    /// ffmpeg's codec name of the first audio stream ffmpeg can decode, if any.
    public var audioCodec: String?
    public var hasAudio: Bool
    /// Seconds, always greater than zero.
    public var duration: Double
    /// The size as displayed, that is after `rotation` is applied.
    public var width: Int
    public var height: Int
    /// Clockwise degrees (0, 90, 180 or 270) that turn the stored frames upright.
    public var rotation: Int
    /// ffmpeg's pixel format name of the video stream (`yuv420p`, `yuv420p10le`, ...).
    public var pixelFormat: String?
    /// When the recording was made (ISO 8601, UTC), from the container's `creation_time`.
    public var creationDate: String?
    /// Whether browsers can play the original as is, so that no rendition is needed.
    public var isBrowserPlayable: Bool
    /// The Live Photo content identifier an iPhone gives the movie half
    /// (`com.apple.quicktime.content.identifier`), as the container states it.
    public var contentIdentifier: String?
    /// Frames a second as recorded: what an Android slow-motion file states
    /// (`com.android.capture.fps`), else the video stream's average rate. nil when unknown.
    public var captureFrameRate: Double?
    /// Where it was recorded, in signed decimal degrees (north and east positive), from the
    /// container's ISO 6709 position (`ISO6709`): both or neither.
    public var latitude: Double?
    public var longitude: Double?

    public init(
        container: ContainerFormat, videoCodec: String, audioCodec: String?, hasAudio: Bool,
        duration: Double, width: Int, height: Int, rotation: Int, pixelFormat: String?,
        creationDate: String?, isBrowserPlayable: Bool, contentIdentifier: String? = nil, captureFrameRate: Double? = nil,
        latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.container = container
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.hasAudio = hasAudio
        self.duration = duration
        self.width = width
        self.height = height
        self.rotation = rotation
        self.pixelFormat = pixelFormat
        self.creationDate = creationDate
        self.isBrowserPlayable = isBrowserPlayable
        self.contentIdentifier = contentIdentifier
        self.captureFrameRate = captureFrameRate
        self.latitude = latitude
        self.longitude = longitude
    }
}
