public import Foundation

/// Media URLs a picker's caller may use without signing in: each names one asset, one kind of
/// its media (the path's last segment: a trimmed clip does not open the original), for an edit's
/// media the edit it was made of, and an expiry, signed with a key that lives as long as the
/// server process. The edit is signed so that the URL keeps showing what was picked however
/// the asset's edit changes later, and never more. A link given to another site names its app
/// (`app=`, signed too), so that removing the app ends it.
public struct CapabilityURLs: Sendable {
    public static let lifetime: TimeInterval = 3600
    private let key: [UInt8]

    public init() {
        key = Crypto.randomBytes(32)
    }

    /// `path?cap=<expiry>.<signature>`, then `&edit=<edit>` and `&app=<app id>` when given; the
    /// path ends with the media kind (`/media/<id>/<kind>`). `edit` is the server's own text for
    /// the edit, opaque here.
    public func sign(
        _ path: String, assetID: String, edit: String? = nil, app: String? = nil, lifetime: TimeInterval = CapabilityURLs.lifetime,
        now: Date = Date()
    ) -> String {
        let expires = Int(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        let kind = path.split(separator: "/").last.map(String.init) ?? ""
        var url = "\(path)?cap=\(expires).\(signature(assetID, kind, expires, edit, app).hex)"
        if let edit { url += "&edit=\(edit.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "")" }
        if let app { url += "&app=\(app.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "")" }
        return url
    }

    /// Whether a `cap` value grants this kind of the asset's media, of this edit (the request's
    /// `edit`), to this app (the request's `app`), now. Whether the app is still allowed is the
    /// caller's to ask.
    public func grants(_ capability: String?, assetID: String, kind: String, edit: String?, app: String? = nil, now: Date = Date()) -> Bool
    {
        guard let capability, let dot = capability.firstIndex(of: "."),
            let expires = Int(capability[..<dot]), let sent = [UInt8](hex: String(capability[capability.index(after: dot)...]))
        else { return false }
        return Double(expires) > now.timeIntervalSince1970 && Crypto.equal(sent, signature(assetID, kind, expires, edit, app))
    }

    /// What an `edit` may show unescaped in a query (`+` would read as a space).
    private static let plain = CharacterSet(charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,-")

    private func signature(_ assetID: String, _ kind: String, _ expires: Int, _ edit: String?, _ app: String?) -> [UInt8] {
        Crypto.hmacSHA256(key: key, Array("\(kind)|\(assetID)|\(expires)|\(edit ?? "")|\(app ?? "")".utf8))
    }
}
