public import Foundation

/// A resumable upload: a file that comes in pieces, over as many requests (and servers, and
/// restarts) as it takes, and becomes an asset when its last byte is in.
public struct Upload: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Waiting for bytes from `offset` on.
        case receiving
        /// Every byte is in and the import has not finished (a crash stopped it, or the store was
        /// unavailable): the next look at the upload tries it again.
        case importing
        /// The bytes became this asset, or were an asset already.
        case done(assetID: String, duplicate: Bool)
        /// The import refused the bytes, for good.
        case refused(LibraryError)
    }

    public let id: String
    /// The whole file's size, declared when the upload was created; nil until the last piece
    /// tells it (a recording streamed while it is shot).
    public let length: Int?
    /// How many bytes are in (they outlive the server; see `Library.Options.uploadCheckpoint`
    /// for the machine): where the next piece starts.
    public let offset: Int
    /// How many of them are on disk, and since when.
    let synced: Int
    let syncedAt: Date
    /// The boot of the machine whose cache holds the bytes past `synced`.
    let cachedIn: String?
    public let originalFilename: String?
    public let source: AssetSource
    public let saveToCameraRoll: Bool
    /// Abandoned past this, the upload and its bytes are deleted; each piece moves it on.
    public let expires: Date
    public let state: State
    /// Whose library it goes to.
    public let owner: Owner
}

/// What a client declares when it opens an upload.
public struct NewUpload: Sendable {
    /// nil: told with the last piece.
    public var length: Int?
    public var originalFilename: String?
    public var source: AssetSource
    public var saveToCameraRoll: Bool
    /// Who opens it, for the quota of open uploads: an address, a session.
    public var client: String
    /// Whose library it goes to; nobody else may ask where it is, add to it or end it.
    public var owner: Owner

    public init(
        length: Int?, originalFilename: String?, source: AssetSource, saveToCameraRoll: Bool, client: String, owner: Owner
    ) {
        self.length = length
        self.originalFilename = originalFilename
        self.source = source
        self.saveToCameraRoll = saveToCameraRoll
        self.client = client
        self.owner = owner
    }
}

/// A piece of an upload a request brought, in a file of the library's work folder.
public struct UploadPieceFile: Sendable {
    /// A digest the client says the piece has (tus' checksum extension), checked before the
    /// piece is kept.
    public enum Checksum: Sendable, Equatable {
        case sha256([UInt8])
        case sha1([UInt8])

        var isSHA256: Bool {
            if case .sha256 = self { true } else { false }
        }
    }

    public let path: String
    public let checksum: Checksum?

    public init(path: String, checksum: Checksum?) {
        self.path = path
        self.checksum = checksum
    }
}
