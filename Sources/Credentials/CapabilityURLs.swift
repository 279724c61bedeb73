public import Foundation

/// Media URLs a picker's caller may use without signing in: each names one asset, one kind of
/// its media (the path's last segment: a trimmed clip does not open the original) and an
/// expiry, signed with a key that lives as long as the server process.
public struct CapabilityURLs: Sendable {
    public static let lifetime: TimeInterval = 3600
    private let key: [UInt8]

    public init() {
        key = Crypto.randomBytes(32)
    }

    /// `path?cap=<expiry>.<signature>` (or `&cap=` when the path has a query).
    /// `path?cap=<expiry>.<signature>`; the path ends with the media kind (`/media/<id>/<kind>`).
    public func sign(_ path: String, assetID: String, now: Date = Date()) -> String {
        let expires = Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        let kind = path.split(separator: "/").last.map(String.init) ?? ""
        return "\(path)?cap=\(expires).\(signature(assetID, kind, expires).hex)"
    }

    /// Whether a `cap` value grants this kind of the asset's media now.
    public func grants(_ capability: String?, assetID: String, kind: String, now: Date = Date()) -> Bool {
        guard let capability, let dot = capability.firstIndex(of: "."),
            let expires = Int(capability[..<dot]), let sent = [UInt8](hex: String(capability[capability.index(after: dot)...]))
        else { return false }
        return Double(expires) > now.timeIntervalSince1970 && Crypto.equal(sent, signature(assetID, kind, expires))
    }

    private func signature(_ assetID: String, _ kind: String, _ expires: Int) -> [UInt8] {
        Crypto.hmacSHA256(key: key, Array("\(kind)|\(assetID)|\(expires)".utf8))
    }
}
