public import Foundation

/// A passkey a person signs in with: the authenticator's credential id and public key (as
/// WebAuthn's base64url and an uncompressed P-256 point), the count it last signed with, and a
/// name the person gave it ("Anna's phone").
public struct Passkey: Codable, Sendable, Equatable {
    /// The credential id, base64url: how a sign-in names its passkey.
    public let id: String
    public let publicKey: [UInt8]
    public var signCount: UInt32
    public var name: String
    public let created: Date
    public var lastUsed: Date?

    /// A person keeps this many at most: one for each of their devices and keys, with room.
    public static let most = 20

    /// A passkey's name as people type it: trimmed, 1 to 64 characters, on one line.
    static func validated(name text: String) throws(CredentialsError) -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw CredentialsError(.invalidPasskeyName, "A passkey's name is 1 to 64 characters, on one line.") }
        return name
    }
}
