public import Foundation

/// A link for people without an account: what it shows (an album of its owner's, or items they
/// chose), until when, behind a password or not, and what its guests may do. Its token is the
/// server's to make and read (`ShareTokens`); the library keeps the link by its id.
public struct ShareLink: Sendable, Equatable {
    public var id: String
    public var owner: Owner
    public var content: Content
    /// When it was made, as the library writes moments (ISO 8601, UTC).
    public var created: String
    /// When it stops opening, in seconds since 1970; nil for never.
    public var expires: Int?
    /// The password's hash as the server wrote it, opaque here; nil for none.
    public var password: String?
    public var options: Options

    public enum Content: Sendable, Equatable {
        case album(String)
        /// Items chosen one by one, in the order chosen; `count` of them.
        case assets(count: Int)
    }

    /// What a guest may do besides looking.
    public struct Options: Sendable, Equatable {
        /// Every byte served through the link carries no location (originals redacted or
        /// re-encoded; renders and renditions keep no metadata at all).
        public var removeLocation: Bool
        /// Originals may be downloaded (one by one, or all as a zip).
        public var allowDownload: Bool
        /// Guests may add photos and videos to the album (an album link's alone); they land in
        /// the owner's library, marked as from the link.
        public var allowUpload: Bool

        public init(removeLocation: Bool, allowDownload: Bool, allowUpload: Bool) {
            (self.removeLocation, self.allowDownload, self.allowUpload) = (removeLocation, allowDownload, allowUpload)
        }
    }

    /// Whether it still opens at `now`.
    public func isLive(at now: Date = Date()) -> Bool {
        expires.map { Double($0) > now.timeIntervalSince1970 } ?? true
    }

    public var albumID: String? {
        if case .album(let id) = content { return id }
        return nil
    }
}

/// A link as its owner asks for it: what it shows and how.
public struct NewShareLink: Sendable {
    public enum Content: Sendable, Equatable {
        case album(String)
        case assets([String])
    }

    public var content: Content
    /// Seconds from now until it stops opening; nil for never.
    public var lifetime: Int?
    /// The password's hash as the server writes it; nil for none.
    public var password: String?
    public var options: ShareLink.Options

    public init(content: Content, lifetime: Int?, password: String?, options: ShareLink.Options) {
        (self.content, self.lifetime, self.password, self.options) = (content, lifetime, password, options)
    }

    /// The longest a link may be made to last: ten years (longer is "never").
    public static let longestLifetime = 10 * 366 * 86_400
}
