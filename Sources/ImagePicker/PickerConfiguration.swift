public import Vocabulary

/// How a picker is presented: the book's properties of `UIImagePickerController`.
public struct PickerConfiguration: Sendable, Codable, Equatable {
    public var sourceType: SourceType = .photoLibrary
    /// What may be picked or captured; the book's default is images only.
    public var mediaTypes: [MediaType] = [.image]
    /// Whether a Live Photo is picked as one (UIKit's `com.apple.live-photo` in mediaTypes, which
    /// JSON spells so too): its info then has `livePhoto`, the still's and the movie's URLs.
    /// Without it a Live Photo is picked as its still. Only with images.
    public var livePhotos = false
    /// Move and Scale for images, trimming for movies, before finishing.
    public var allowsEditing = false
    public var cameraCaptureMode: CameraCaptureMode = .photo
    public var cameraDevice: CameraDevice = .rear
    /// The longest recording, in seconds (the book's default is ten minutes).
    public var videoMaximumDuration: Double = 600
    public var videoQuality: VideoQuality = .medium
    /// How many items may be picked from the library; the book's picker takes one. More than one
    /// is PHPicker's multiple selection: checkmarks, then Add, and no editing.
    public var selectionLimit = 1
    /// PHPicker's selection behaviour: `ordered` numbers the checkmarks in the order they were
    /// made. The results come in the user's order either way.
    public var selection: SelectionBehavior = .default
    /// Items selected when the picker opens (PHPicker's preselectedAssetIdentifiers), which the
    /// user may deselect; no more than `selectionLimit`.
    public var preselectedAssetIdentifiers: [String] = []

    public enum SelectionBehavior: String, Sendable, Codable, Equatable {
        case `default`, ordered
    }

    /// UIKit's imageExportPreset (and PHPicker's representation mode): what the caller's URLs give.
    /// `compatible`, the default as on iOS: a JPEG for an image in a format not every program
    /// reads (HEIF, AVIF, TIFF) and an H.264/AAC MP4 for a movie, whatever its codecs; `current`:
    /// the original file as it is.
    public var exportPreset: ExportPreset = .compatible

    public enum ExportPreset: String, Sendable, Codable, Equatable {
        case compatible, current
    }

    /// iOS 27's privacy per pick: the caller's media without location, or without captions
    /// (EXIF, XMP and IPTC; a movie's container tags go whole for either). The picker shows a
    /// switch that starts here; nil when the caller says nothing, which the server makes on
    /// for callers who are not the owner. The library's original never changes.
    public var removeLocation: Bool?
    public var removeCaptions: Bool?

    /// PHPicker's filter: of what the source holds of `mediaTypes`, only the items it admits
    /// (nil: all of them).
    public var filter: PickerFilter?

    public init() {}

    public init(sourceType: SourceType, mediaTypes: [MediaType] = [.image], allowsEditing: Bool = false) {
        self.sourceType = sourceType
        self.mediaTypes = mediaTypes
        self.allowsEditing = allowsEditing
    }

    /// Refuses what no picker could honour, naming the field.
    public func validate() throws(PickerError) {
        guard !livePhotos || mediaTypes.contains(.image) else {
            throw PickerError(.invalidConfiguration, "mediaTypes: \(Self.livePhotoType) goes with public.image, as in UIKit.")
        }
        guard !mediaTypes.isEmpty else { throw PickerError(.invalidConfiguration, "mediaTypes: name at least one media type.") }
        guard Set(mediaTypes).count == mediaTypes.count else {
            throw PickerError(.invalidConfiguration, "mediaTypes: a media type is named twice.")
        }
        guard videoMaximumDuration.isFinite, videoMaximumDuration > 0, videoMaximumDuration <= 3600 else {
            throw PickerError(.invalidConfiguration, "videoMaximumDuration: between 0 and 3600 seconds.")
        }
        guard (1...100).contains(selectionLimit) else {
            throw PickerError(.invalidConfiguration, "selectionLimit: between 1 and 100.")
        }
        guard preselectedAssetIdentifiers.count <= selectionLimit,
            Set(preselectedAssetIdentifiers).count == preselectedAssetIdentifiers.count
        else {
            throw PickerError(.invalidConfiguration, "preselectedAssetIdentifiers: distinct ids, no more than selectionLimit.")
        }
        guard preselectedAssetIdentifiers.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 64 }) else {
            throw PickerError(.invalidConfiguration, "preselectedAssetIdentifiers: asset ids.")
        }
        guard sourceType != .camera || filter == nil else {
            throw PickerError(.invalidConfiguration, "filter: for the photo library; the camera takes what cameraCaptureMode says.")
        }
        if sourceType == .camera {
            let wanted: MediaType = cameraCaptureMode == .photo ? .image : .movie
            guard mediaTypes.contains(wanted) else {
                throw PickerError(
                    .invalidConfiguration, "cameraCaptureMode: \(cameraCaptureMode.rawValue) needs \(wanted.rawValue) in mediaTypes.")
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case sourceType, mediaTypes, allowsEditing, cameraCaptureMode, cameraDevice, videoMaximumDuration, videoQuality, selectionLimit
        case selection, preselectedAssetIdentifiers, exportPreset, removeLocation, removeCaptions, filter
    }

    /// UIKit's uniform type identifier of a Live Photo.
    public static let livePhotoType = "com.apple.live-photo"

    /// Every field is optional in JSON and takes the book's default when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PickerConfiguration()
        sourceType = try container.decodeIfPresent(SourceType.self, forKey: .sourceType) ?? defaults.sourceType
        if let named = try container.decodeIfPresent([String].self, forKey: .mediaTypes) {
            livePhotos = named.contains(Self.livePhotoType)
            mediaTypes = try named.filter { $0 != Self.livePhotoType }.map { name in
                guard let type = MediaType(rawValue: name) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .mediaTypes, in: container, debugDescription: "\(name) is no media type this picker knows.")
                }
                return type
            }
            guard named.filter({ $0 == Self.livePhotoType }).count <= 1 else {
                throw DecodingError.dataCorruptedError(forKey: .mediaTypes, in: container, debugDescription: "a media type is named twice.")
            }
        } else {
            mediaTypes = defaults.mediaTypes
        }
        allowsEditing = try container.decodeIfPresent(Bool.self, forKey: .allowsEditing) ?? defaults.allowsEditing
        cameraCaptureMode = try container.decodeIfPresent(CameraCaptureMode.self, forKey: .cameraCaptureMode) ?? defaults.cameraCaptureMode
        cameraDevice = try container.decodeIfPresent(CameraDevice.self, forKey: .cameraDevice) ?? defaults.cameraDevice
        videoMaximumDuration = try container.decodeIfPresent(Double.self, forKey: .videoMaximumDuration) ?? defaults.videoMaximumDuration
        videoQuality = try container.decodeIfPresent(VideoQuality.self, forKey: .videoQuality) ?? defaults.videoQuality
        selectionLimit = try container.decodeIfPresent(Int.self, forKey: .selectionLimit) ?? defaults.selectionLimit
        selection = try container.decodeIfPresent(SelectionBehavior.self, forKey: .selection) ?? defaults.selection
        preselectedAssetIdentifiers =
            try container.decodeIfPresent([String].self, forKey: .preselectedAssetIdentifiers) ?? defaults.preselectedAssetIdentifiers
        exportPreset = try container.decodeIfPresent(ExportPreset.self, forKey: .exportPreset) ?? defaults.exportPreset
        removeLocation = try container.decodeIfPresent(Bool.self, forKey: .removeLocation)
        removeCaptions = try container.decodeIfPresent(Bool.self, forKey: .removeCaptions)
        filter = try container.decodeIfPresent(PickerFilter.self, forKey: .filter)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sourceType, forKey: .sourceType)
        try container.encode(mediaTypes.map(\.rawValue) + (livePhotos ? [Self.livePhotoType] : []), forKey: .mediaTypes)
        try container.encode(allowsEditing, forKey: .allowsEditing)
        try container.encode(cameraCaptureMode, forKey: .cameraCaptureMode)
        try container.encode(cameraDevice, forKey: .cameraDevice)
        try container.encode(videoMaximumDuration, forKey: .videoMaximumDuration)
        try container.encode(videoQuality, forKey: .videoQuality)
        try container.encode(selectionLimit, forKey: .selectionLimit)
        try container.encode(selection, forKey: .selection)
        try container.encode(preselectedAssetIdentifiers, forKey: .preselectedAssetIdentifiers)
        try container.encode(exportPreset, forKey: .exportPreset)
        try container.encodeIfPresent(removeLocation, forKey: .removeLocation)
        try container.encodeIfPresent(removeCaptions, forKey: .removeCaptions)
        try container.encodeIfPresent(filter, forKey: .filter)
    }
}
