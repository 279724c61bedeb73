/// Where a movie's playable rendition stands.
public enum RenditionStatus: Sendable, Equatable {
    /// Browsers play the original as it is, or the rendition is made.
    case ready
    /// ffmpeg is making it; `progress` runs from 0 to 1.
    case making(progress: Double)
    /// Nobody has asked for it since the server started (or, for servers sharing a library,
    /// at all).
    case notStarted
    /// The last attempt failed, and it is not made again until someone asks for a retry.
    case failed(LibraryError)
}
