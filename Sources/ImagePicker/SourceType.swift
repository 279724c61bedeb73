/// Where the picker takes media from: the book's `UIImagePickerController.SourceType`.
public enum SourceType: String, Sendable, Codable, CaseIterable {
    case camera
    /// Every asset in the library, with its albums.
    case photoLibrary
    /// The Camera Roll album only.
    case savedPhotosAlbum

    /// The picker's title for this source.
    public var title: String {
        switch self {
        case .camera: "Camera"
        case .photoLibrary: "Photos"
        case .savedPhotosAlbum: "Camera Roll"
        }
    }
}

/// Whether the camera takes stills or records.
public enum CameraCaptureMode: String, Sendable, Codable, CaseIterable {
    case photo
    case video
}

public enum CameraDevice: String, Sendable, Codable, CaseIterable {
    case rear
    case front
}

/// The recording quality asked of the camera; the browser gives the nearest it can.
public enum VideoQuality: String, Sendable, Codable, CaseIterable {
    case high
    case medium
    case low
    case vga640x480
    case hd1280x720
    case hd1920x1080

    /// The frame size to ask `getUserMedia` for.
    public var idealSize: (width: Int, height: Int) {
        switch self {
        case .high, .hd1920x1080: (1920, 1080)
        case .medium, .hd1280x720: (1280, 720)
        case .low: (480, 360)
        case .vga640x480: (640, 480)
        }
    }
}
