public import Foundation

/// Media URLs a picker's caller may use without signing in: each names one asset, one kind of
/// its media (the path's last segment: a trimmed clip does not open the original), for an edit's
/// media the edit it was made of, and an expiry, signed with a key that lives as long as the
/// server process. The edit is signed so that the URL keeps showing what was picked however
/// the asset's edit changes later, and never more.
public struct CapabilityURLs: Sendable {
    public static let lifetime: TimeInterval = 3600
    private let key: [UInt8]

    public init() {
        key = Crypto.randomBytes(32)
    }

    /// `path?cap=<expiry>.<signature>`, and `&edit=<edit>` when given; the path ends with the
    /// media kind (`/media/<id>/<kind>`). `edit` is the server's own text for the edit, opaque here.
    public func sign(_ path: String, assetID: String, edit: String? = nil, now: Date = Date()) -> String {
        let expires = Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        let kind = path.split(separator: "/").last.map(String.init) ?? ""
        let url = "\(path)?cap=\(expires).\(signature(assetID, kind, expires, edit).hex)"
        guard let edit else { return url }
        return "\(url)&edit=\(edit.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? "")"
    }

    /// Whether a `cap` value grants this kind of the asset's media, of this edit (the request's
    /// `edit`), now.
    public func grants(_ capability: String?, assetID: String, kind: String, edit: String?, now: Date = Date()) -> Bool {
        guard let capability, let dot = capability.firstIndex(of: "."),
            let expires = Int(capability[..<dot]), let sent = [UInt8](hex: String(capability[capability.index(after: dot)...]))
        else { return false }
        return Double(expires) > now.timeIntervalSince1970 && Crypto.equal(sent, signature(assetID, kind, expires, edit))
    }

    /// What an `edit` may show unescaped in a query (`+` would read as a space).
    private static let plain = CharacterSet(charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,-")

    private func signature(_ assetID: String, _ kind: String, _ expires: Int, _ edit: String?) -> [UInt8] {
        Crypto.hmacSHA256(key: key, Array("\(kind)|\(assetID)|\(expires)|\(edit ?? "")".utf8))
    }
}
