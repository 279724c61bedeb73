import Digests
import Foundation

/// A passkey authenticator of a test's own, doing the authenticator's part of WebAuthn as the
/// specification writes it: a P-256 key made and used by OpenSSL's command line (so the server's
/// checks are tried against another implementation than ours), authenticator data and a "none"
/// attestation written byte by byte, and the browser's client data.
public struct SoftAuthenticator: Sendable {
    /// The relying party its passkey is for (a host name) and the origin its browser is at.
    public let site: String
    public let origin: String
    public let credentialID: [UInt8]
    /// The key's public point, uncompressed (0x04, x, y).
    public let point: [UInt8]
    private let folder: TemporaryDirectory

    private var key: String { folder.file("key.pem") }

    public static func make(site: String, origin: String) async throws -> SoftAuthenticator {
        let folder = TemporaryDirectory("passkey")
        let key = folder.file("key.pem")
        _ = try await Executable.run(program: "/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
        _ = try await Executable.run(
            program: "/usr/bin/openssl", ["ec", "-in", key, "-pubout", "-outform", "DER", "-out", folder.file("public.der")])
        let point = Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("public.der"))).suffix(65))
        let id = (0..<16).map { _ in UInt8.random(in: 0...255) }
        return SoftAuthenticator(site: site, origin: origin, credentialID: id, point: point, folder: folder)
    }

    /// The flags of a sign-in with the user present and verified; 0x40 more names a new passkey.
    public static let (presentAndVerified, withCredential): (UInt8, UInt8) = (0x05, 0x40)

    /// The JSON a browser writes for the ceremony (`webauthn.create` or `webauthn.get`).
    public func clientData(_ type: String, _ challenge: String, origin: String? = nil) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin ?? self.origin)","crossOrigin":false}"#.utf8)
    }

    /// The relying party's hash, the flags and the count; with `withCredential` in the flags, the
    /// new passkey's id and its COSE key after them.
    public func authenticatorData(site: String? = nil, flags: UInt8, count: UInt32) -> [UInt8] {
        var data =
            Digest.sha256(Array((site ?? self.site).utf8)) + [flags] + (0..<4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) }
        if flags & Self.withCredential != 0 {
            let (x, y) = (Array(point[1..<33]), Array(point[33..<65]))
            // kty EC2, alg ES256, crv P-256, x, y.
            let key: [UInt8] = [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + x + [0x22, 0x58, 0x20] + y
            data += [UInt8](repeating: 0, count: 16) + [0, UInt8(credentialID.count)] + credentialID + key
        }
        return data
    }

    /// `{"fmt": "none", "attStmt": {}, "authData": data}`.
    public func attestation(_ data: [UInt8]) -> [UInt8] {
        [0xa3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [0xa0, 0x68]
            + Array("authData".utf8) + [0x59, UInt8(data.count >> 8), UInt8(data.count & 0xff)] + data
    }

    /// An ES256 signature (DER) of `message` by this passkey.
    public func sign(_ message: [UInt8]) async throws -> [UInt8] {
        let (input, output) = (folder.file("message-\(UUID().uuidString)"), folder.file("signature-\(UUID().uuidString)"))
        try Data(message).write(to: URL(fileURLWithPath: input))
        _ = try await Executable.run(program: "/usr/bin/openssl", ["dgst", "-sha256", "-sign", key, "-out", output, input])
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// What `navigator.credentials.create` gives for `challenge`.
    public func registration(_ challenge: String) -> (attestationObject: [UInt8], clientDataJSON: [UInt8]) {
        (
            attestation(authenticatorData(flags: Self.presentAndVerified | Self.withCredential, count: 0)),
            clientData("webauthn.create", challenge)
        )
    }

    /// What `navigator.credentials.get` gives for `challenge`, signing with `count`.
    public func assertion(_ challenge: String, count: UInt32) async throws -> (
        authenticatorData: [UInt8], clientDataJSON: [UInt8], signature: [UInt8]
    ) {
        let data = authenticatorData(flags: Self.presentAndVerified, count: count)
        let client = clientData("webauthn.get", challenge)
        return (data, client, try await sign(data + Digest.sha256(client)))
    }
}
