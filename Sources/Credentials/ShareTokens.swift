import Digests

/// The tokens of links for people without an account, and the proof a browser keeps of a link's
/// password. A token is the link's id with its signature (the capability key's, so every server
/// over the library reads it alike), so the library keeps ids alone and the owner's list can show
/// each link's URL again; revoking the link is deleting its row. 64 hex digits: 16 random bytes
/// of id, 16 of signature.
public struct ShareTokens: Sendable {
    private let key: CapabilityKey

    public init(key: CapabilityKey) {
        self.key = key
    }

    /// A new link's id: 32 hex digits.
    public static func newID() -> String { Hex.text(Crypto.randomBytes(16)) }

    /// The token a link's URL carries.
    public func token(for id: String) -> String { id + Hex.text(signature("link", id)) }

    /// The link id a token names, when the token is one this library made; nil for anything
    /// else, which is as absent as a revoked link.
    public func linkID(of token: some StringProtocol) -> String? {
        let utf8 = Array(token.utf8)
        guard utf8.count == 64, let id = Hex.bytes(utf8[..<32]), let sent = Hex.bytes(utf8[32...]) else { return nil }
        let text = Hex.text(id)
        return Crypto.equal(sent, signature("link", text)) ? text : nil
    }

    /// The cookie a browser keeps once a link's password was given: it names the link and its
    /// password (the hash as kept, whose salt changes with it), so a new password asks again.
    public func unlocking(_ id: String, password: String) -> (name: String, value: String) {
        (Self.cookieName(id), Hex.text(signature("unlock|\(password)", id)))
    }

    /// Whether a cookie's value proves the link's current password was given.
    public func unlocks(_ value: String?, _ id: String, password: String) -> Bool {
        guard let value, let sent = Hex.bytes(value.utf8) else { return false }
        return Crypto.equal(sent, signature("unlock|\(password)", id))
    }

    public static func cookieName(_ id: String) -> String { "cameraroll_link_\(id)" }

    private func signature(_ purpose: String, _ id: String) -> [UInt8] {
        Array(Digest.hmacSHA256(key: key.secret, Array("share|\(purpose)|\(id)".utf8)).prefix(16))
    }
}
