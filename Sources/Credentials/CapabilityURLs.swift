public import Foundation

/// Media URLs a picker's caller may use without signing in: each names one asset and an
/// expiry, signed with a key that lives as long as the server process.
public struct CapabilityURLs: Sendable {
    public static let lifetime: TimeInterval = 3600
    private let key: [UInt8]

    public init() {
        key = Crypto.randomBytes(32)
    }

    /// `path?cap=<expiry>.<signature>` (or `&cap=` when the path has a query).
    public func sign(_ path: String, assetID: String, now: Date = Date()) -> String {
        let expires = Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        let separator = path.contains("?") ? "&" : "?"
        return "\(path)\(separator)cap=\(expires).\(signature(assetID, expires).hex)"
    }

    /// Whether a `cap` value grants the asset now.
    public func grants(_ capability: String?, assetID: String, now: Date = Date()) -> Bool {
        guard let capability, let dot = capability.firstIndex(of: "."),
            let expires = Int(capability[..<dot]), let sent = [UInt8](hex: String(capability[capability.index(after: dot)...]))
        else { return false }
        return Double(expires) > now.timeIntervalSince1970 && Crypto.equal(sent, signature(assetID, expires))
    }

    private func signature(_ assetID: String, _ expires: Int) -> [UInt8] {
        Crypto.hmacSHA256(key: key, Array("\(assetID)|\(expires)".utf8))
    }
}
