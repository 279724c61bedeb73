import Digests
public import Foundation

/// The challenges a passkey signs, made so that any server of the library checks them without
/// keeping them: 16 random bytes, when it expires and for what (a sign-in, or adding a passkey
/// for one person), signed with the capability key, as base64url (how WebAuthn's client data
/// names it). A challenge is good for five minutes.
public struct PasskeyChallenges: Sendable {
    private let key: CapabilityKey

    public init(key: CapabilityKey) {
        self.key = key
    }

    public static let lifetime: TimeInterval = 300

    /// What a challenge is for: a sign-in, or a passkey added by the person of that id.
    public enum Purpose: Sendable, Equatable {
        case signIn
        case register(user: Int)

        var text: String {
            switch self {
            case .signIn: "sign-in"
            case .register(let user): "register|\(user)"
            }
        }
    }

    public func make(for purpose: Purpose, now: Date = Date()) -> String {
        let nonce = Crypto.randomBytes(16)
        let expires = UInt64(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        let body = nonce + (0..<8).map { UInt8(truncatingIfNeeded: expires >> (56 - 8 * $0)) }
        return Base64URL.text(body + signature(body, purpose))
    }

    /// Whether `challenge` is one made here for `purpose` that has not expired.
    public func accepts(_ challenge: String, for purpose: Purpose, now: Date = Date()) -> Bool {
        guard let bytes = Base64URL.bytes(challenge), bytes.count == 40 else { return false }
        let body = Array(bytes[0..<24])
        let expires = body[16..<24].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Crypto.equal(Array(bytes[24...]), signature(body, purpose)) && Double(expires) > now.timeIntervalSince1970
    }

    private func signature(_ body: [UInt8], _ purpose: Purpose) -> [UInt8] {
        Array(Digest.hmacSHA256(key: key.secret, Array("passkey|\(purpose.text)|".utf8) + body).prefix(16))
    }
}

/// Base64 with `-` and `_` and no padding (RFC 4648 §5), as WebAuthn writes its byte strings.
public enum Base64URL {
    public static func text(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text, padded or not; nil for anything else, and for a spelling
    /// other than the one `text` writes (unused bits set), so that one value has one text.
    public static func bytes(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0.isBase64URL }) else { return nil }
        var plain = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while plain.utf8.count % 4 != 0 { plain += "=" }
        guard let bytes = Data(base64Encoded: plain).map(Array.init), Self.text(bytes) == text.replacingOccurrences(of: "=", with: "")
        else { return nil }
        return bytes
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
            || self == UInt8(ascii: "=")
    }
}
