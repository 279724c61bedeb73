public import Vocabulary

/// What can be picked here: the browser says whether it has a camera and what it records; the
/// server says what its sources hold. The book's `isSourceTypeAvailable` and
/// `availableMediaTypes(for:)` answer from these.
public struct Availability: Sendable, Codable, Equatable {
    /// Media types the camera can capture: image with a video input, movie when it can also
    /// record (MediaRecorder). Empty without a camera or without permission.
    public var cameraMediaTypes: Set<MediaType>
    /// Media types each library source holds at least one of.
    public var libraryMediaTypes: [SourceType: Set<MediaType>]

    public init(cameraMediaTypes: Set<MediaType> = [], libraryMediaTypes: [SourceType: Set<MediaType>] = [:]) {
        self.cameraMediaTypes = cameraMediaTypes
        self.libraryMediaTypes = libraryMediaTypes
    }

    public func availableMediaTypes(for source: SourceType) -> [MediaType] {
        let types = source == .camera ? cameraMediaTypes : libraryMediaTypes[source] ?? []
        return types.sorted()
    }

    /// A source is available when it can offer at least one media type.
    public func isSourceTypeAvailable(_ source: SourceType) -> Bool {
        !availableMediaTypes(for: source).isEmpty
    }

    /// What a configuration can actually offer: its media types that the source has. Throws the
    /// book's "Device doesn't support that media source." when that is nothing.
    public func offeredMediaTypes(_ configuration: PickerConfiguration) throws(PickerError) -> [MediaType] {
        let available = Set(availableMediaTypes(for: configuration.sourceType))
        let offered = configuration.mediaTypes.filter(available.contains)
        guard !offered.isEmpty else { throw PickerError.sourceUnavailable }
        return offered
    }
}
