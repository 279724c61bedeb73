/// How an asset came into the library.
public enum AssetSource: String, Sendable, Codable, CaseIterable {
    /// Taken with the picker's camera; unsaved until saved to the Camera Roll.
    case camera
    /// Sent by a browser or script through the API.
    case upload
    /// Imported from files on the command line.
    case imported = "import"
}

/// What a listing shows: the book's picker sources that the library serves.
public enum LibrarySource: String, Sendable, Codable, CaseIterable {
    /// Every asset that is not trashed and not an unsaved capture.
    case photoLibrary
    /// The Camera Roll album only.
    case savedPhotosAlbum
}
