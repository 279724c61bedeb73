import Digests
public import Foundation
import Storage

/// Media URLs a picker's caller may use without signing in: each names one asset, one kind of
/// its media (the path's last segment: a trimmed clip does not open the original), for an edit's
/// media the edit it was made of, and an expiry, signed with the data folder's key (so links
/// outlive a restart, and every server over the same data checks them alike), whose id each
/// link names. The edit is signed so that the URL keeps showing what was picked however
/// the asset's edit changes later, and never more. A link given to another site names its app
/// (`app=`, signed too), so that removing the app ends it.
public struct CapabilityURLs: Sendable {
    public static let lifetime: TimeInterval = 3600
    private let key: CapabilityKey

    public init(key: CapabilityKey = .random()) {
        self.key = key
    }

    /// `path?cap=<key id>.<expiry>.<signature>`, then `&edit=<edit>` and `&app=<app id>` when given; the
    /// path ends with the media kind (`/media/<id>/<kind>`). `edit` is the server's own text for
    /// the edit, opaque here.
    public func sign(
        _ path: String, assetID: String, edit: String? = nil, app: String? = nil, lifetime: TimeInterval = CapabilityURLs.lifetime,
        now: Date = Date()
    ) -> String {
        let expires = Int(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        let kind = path.split(separator: "/").last.map(String.init) ?? ""
        var url = "\(path)?cap=\(key.id).\(expires).\(Hex.text(signature(assetID, kind, expires, edit, app)))"
        if let edit { url += "&edit=\(edit.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "")" }
        if let app { url += "&app=\(app.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "")" }
        return url
    }

    /// Whether a `cap` value grants this kind of the asset's media, of this edit (the request's
    /// `edit`), to this app (the request's `app`), now. Whether the app is still allowed is the
    /// caller's to ask.
    public func grants(_ capability: String?, assetID: String, kind: String, edit: String?, app: String? = nil, now: Date = Date()) -> Bool
    {
        let parts = capability?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        guard parts.count == 3, parts[0] == key.id, let expires = Int(parts[1]), let sent = Hex.bytes(parts[2].utf8) else {
            return false
        }
        return Double(expires) > now.timeIntervalSince1970 && Crypto.equal(sent, signature(assetID, kind, expires, edit, app))
    }

    /// What an `edit` may show unescaped in a query (`+` would read as a space).
    private static let plain = CharacterSet(charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,-")

    private func signature(_ assetID: String, _ kind: String, _ expires: Int, _ edit: String?, _ app: String?) -> [UInt8] {
        Digest.hmacSHA256(key: key.secret, Array("\(kind)|\(assetID)|\(expires)|\(edit ?? "")|\(app ?? "")".utf8))
    }
}

/// The secret capability URLs are signed with, and the id links name it by.
public struct CapabilityKey: Sendable, Codable, Equatable {
    public let id: String
    let secret: [UInt8]

    /// A key for this process alone, for tests and tools.
    public static func random() -> CapabilityKey {
        CapabilityKey(id: Hex.text(Crypto.randomBytes(4)), secret: Crypto.randomBytes(32))
    }

    /// The key every server of a library shares, kept in the library's database: `stored` gives
    /// the record kept there, or keeps the one it is offered (made here) when there is none.
    public static func shared(_ stored: (_ offered: String) async throws -> String) async throws(CredentialsError) -> CapabilityKey {
        guard let made = try? JSONEncoder().encode(random()) else {
            throw CredentialsError(.writeFailed, "The key for picked items' links could not be made.")
        }
        let offered = String(decoding: made, as: UTF8.self)
        let kept: String
        do {
            kept = try await stored(offered)
        } catch {
            throw CredentialsError(.unreadableCapabilityKey, "The key for picked items' links cannot be read from the database.")
        }
        guard let key = try? JSONDecoder().decode(CapabilityKey.self, from: Data(kept.utf8)), key.secret.count == 32, !key.id.isEmpty else {
            throw CredentialsError(.unreadableCapabilityKey, "The key for picked items' links in the database is damaged.")
        }
        return key
    }

    /// The data folder's key (`capability-key.json`, its owner's alone), made at first use.
    public static func kept(in dataFolder: URL) throws(CredentialsError) -> CapabilityKey {
        let file = dataFolder.appendingPathComponent("capability-key.json")
        return try FileLock.holding(dataFolder.appendingPathComponent("capability-key.lock")) { () throws(CredentialsError) in
            if let data = try? Data(contentsOf: file) {
                guard let kept = try? JSONDecoder().decode(CapabilityKey.self, from: data), kept.secret.count == 32, !kept.id.isEmpty else {
                    throw CredentialsError(
                        .unreadableCapabilityKey, "capability-key.json is damaged; remove it (links given out so far stop working).")
                }
                return kept
            }
            let made = random()
            do {
                try PrivateFile.replace(Array(try JSONEncoder().encode(made)), at: file.path)
            } catch {
                throw CredentialsError(.writeFailed, "The key for picked items' links could not be saved.")
            }
            return made
        }
    }
}
