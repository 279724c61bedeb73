import Digests
import Foundation

/// Passkeys (WebAuthn Level 2) as a server checks them, with nothing trusted but what this
/// server gave and kept: the browser's client data names our challenge and an origin we serve,
/// the authenticator's data our relying party (the host name), the user's presence and their
/// verification (a PIN or a biometric: a passkey stands for a password), and a sign-in is signed
/// by the key registered. Keys are ES256 (P-256), which every platform authenticator offers;
/// attestation is not asked for, as no vendor's roots are trusted here.
public enum WebAuthn {
    /// A passkey as registered.
    public struct Registered: Sendable, Equatable {
        public var credentialID: [UInt8]
        /// Its P-256 public key, uncompressed (0x04, x, y).
        public var publicKey: [UInt8]
        public var signCount: UInt32

        public init(credentialID: [UInt8], publicKey: [UInt8], signCount: UInt32) {
            self.credentialID = credentialID
            self.publicKey = publicKey
            self.signCount = signCount
        }
    }

    /// The answer of `navigator.credentials.create`: the new passkey, when it is one for this
    /// challenge, this site (`origin` tells whether the browser's origin is one we serve) and this
    /// relying party.
    public static func registration(
        attestationObject: [UInt8], clientDataJSON: [UInt8], challenge: String, origin: (String) -> Bool, relyingParty: String
    ) throws(CredentialsError) -> Registered {
        try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge, origin: origin)
        guard let bytes = try CBOR.decode(attestationObject)["authData"]?.byteString else {
            throw refused("The attestation has no authenticator data.")
        }
        let data = try AuthenticatorData(bytes, relyingParty: relyingParty)
        guard let credential = data.credential else { throw refused("The authenticator named no new passkey.") }
        return Registered(credentialID: credential.id, publicKey: credential.publicKey, signCount: data.signCount)
    }

    /// Checks the answer of `navigator.credentials.get` against the passkey it names (its key
    /// and the count it last signed with): the count it signs with now, kept for the next time.
    public static func assertion(
        authenticatorData: [UInt8], clientDataJSON: [UInt8], signature: [UInt8], challenge: String, origin: (String) -> Bool,
        relyingParty: String, publicKey: [UInt8], signCount stored: UInt32
    ) throws(CredentialsError) -> UInt32 {
        try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge, origin: origin)
        let data = try AuthenticatorData(authenticatorData, relyingParty: relyingParty)
        guard Crypto.verifyES256(publicKey: publicKey, message: authenticatorData + Digest.sha256(clientDataJSON), signature: signature)
        else { throw refused("The passkey's signature does not match its key.") }
        try checkCount(data.signCount, after: stored)
        return data.signCount
    }

    /// An authenticator that counts never signs with a count it used before: one that does is
    /// a copy of the key. One that does not count says 0 every time.
    static func checkCount(_ count: UInt32, after stored: UInt32) throws(CredentialsError) {
        guard count == 0 && stored == 0 || count > stored else {
            throw refused("This passkey signed with a count it used before: it may have been copied.")
        }
    }

    private struct ClientData: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
    }

    private static func checkClientData(
        _ json: [UInt8], type: String, challenge: String, origin: (String) -> Bool
    ) throws(CredentialsError) {
        guard let client = try? JSONDecoder().decode(ClientData.self, from: Data(json)) else {
            throw refused("The browser's client data is not the JSON WebAuthn writes.")
        }
        guard client.type == type else { throw refused("The browser's answer is for another ceremony (\(client.type)).") }
        guard client.challenge == challenge else { throw refused("The browser's answer is for another challenge.") }
        guard origin(client.origin), client.crossOrigin != true else { throw refused("The browser's answer is for another site.") }
    }

    static func refused(_ message: String) -> CredentialsError { CredentialsError(.invalidPasskey, message) }

    /// An authenticator's data: the relying party's hash, flags, the signature count, and at
    /// registration the new credential's id and COSE key (extensions after it are not read).
    struct AuthenticatorData {
        let signCount: UInt32
        let credential: (id: [UInt8], publicKey: [UInt8])?

        private static let (userPresent, userVerified, credentialIncluded): (UInt8, UInt8, UInt8) = (0x01, 0x04, 0x40)

        init(_ bytes: [UInt8], relyingParty: String) throws(CredentialsError) {
            guard bytes.count >= 37 else { throw refused("The authenticator's data is too short.") }
            guard Crypto.equal(Array(bytes[0..<32]), Digest.sha256(Array(relyingParty.utf8))) else {
                throw refused("The passkey is another site's.")
            }
            let flags = bytes[32]
            guard flags & Self.userPresent != 0 else { throw refused("The authenticator did not see the user.") }
            guard flags & Self.userVerified != 0 else {
                throw refused("The authenticator did not verify the user (a PIN, a fingerprint or a face); use one that does.")
            }
            signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
            guard flags & Self.credentialIncluded != 0 else {
                credential = nil
                return
            }
            let rest = bytes[37...]
            guard rest.count >= 18 else { throw refused("The new passkey's data is too short.") }
            let length = Int(rest[rest.startIndex + 16]) << 8 | Int(rest[rest.startIndex + 17])
            let idStart = rest.startIndex + 18
            guard length > 0, length <= 1023, rest.endIndex - idStart >= length else { throw refused("The new passkey's id is damaged.") }
            let id = Array(bytes[idStart..<idStart + length])
            let (key, _) = try CBOR.decodePrefix(bytes[(idStart + length)...])
            credential = (id, try Self.p256Point(key))
        }

        /// A COSE key (RFC 9053) of an EC2 key for ES256 on P-256, as an uncompressed point.
        static func p256Point(_ key: CBOR) throws(CredentialsError) -> [UInt8] {
            guard key[1]?.integer == 2, key[3]?.integer == -7, key[-1]?.integer == 1,
                let x = key[-2]?.byteString, let y = key[-3]?.byteString, x.count == 32, y.count == 32
            else { throw refused("The passkey's key is not a P-256 key for ES256, the one kind this server takes.") }
            return [4] + x + y
        }
    }
}
