import Credentials
import Digests
import Foundation
import TestSupport
import Testing

/// Passkeys as the server checks them, with a P-256 key of the test's own made and used by
/// OpenSSL's command line (an authenticator's part): a registration and sign-ins that verify, and
/// each thing a forger could change refused.
@Suite struct WebAuthnTests {
    let site = "photos.example"
    let origin = "https://photos.example"

    @Test func aPasskeyRegistersAndSignsInAndAForgeryIsRefused() async throws {
        let authenticator = try await SoftAuthenticator.make(site: site, origin: origin)
        let (id, point) = (authenticator.credentialID, authenticator.point)
        func clientData(_ type: String, _ challenge: String, origin: String? = nil) -> [UInt8] {
            authenticator.clientData(type, challenge, origin: origin)
        }
        func authenticatorData(site: String? = nil, flags: UInt8, count: UInt32) -> [UInt8] {
            authenticator.authenticatorData(site: site, flags: flags, count: count)
        }
        func attestation(_ data: [UInt8]) -> [UInt8] { authenticator.attestation(data) }
        let challenges = PasskeyChallenges(key: .random())
        let ours = { (origin: String) in origin == self.origin }

        let registering = challenges.make(for: .register(user: 2))
        #expect(challenges.accepts(registering, for: .register(user: 2)))
        #expect(!challenges.accepts(registering, for: .register(user: 3)) && !challenges.accepts(registering, for: .signIn))
        let created = attestation(authenticatorData(flags: 0x45, count: 0))
        let registered = try WebAuthn.registration(
            attestationObject: created, clientDataJSON: clientData("webauthn.create", registering), challenge: registering, origin: ours,
            relyingParty: site)
        #expect(registered == WebAuthn.Registered(credentialID: id, publicKey: point, signCount: 0))

        let refusals: [(String, () throws -> Void)] = [
            (
                "another challenge",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: created, clientDataJSON: clientData("webauthn.create", "x"), challenge: registering,
                        origin: ours, relyingParty: site)
                }
            ),
            (
                "a sign-in's client data",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: created, clientDataJSON: clientData("webauthn.get", registering), challenge: registering,
                        origin: ours, relyingParty: site)
                }
            ),
            (
                "another origin",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: created,
                        clientDataJSON: clientData("webauthn.create", registering, origin: "https://evil.example"), challenge: registering,
                        origin: ours, relyingParty: site)
                }
            ),
            (
                "another site's passkey",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: attestation(
                            authenticatorData(site: "evil.example", flags: 0x45, count: 0)),
                        clientDataJSON: clientData("webauthn.create", registering), challenge: registering, origin: ours, relyingParty: site
                    )
                }
            ),
            (
                "no user verification",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: attestation(authenticatorData(flags: 0x41, count: 0)),
                        clientDataJSON: clientData("webauthn.create", registering), challenge: registering, origin: ours, relyingParty: site
                    )
                }
            ),
            (
                "no credential",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: attestation(authenticatorData(flags: 0x05, count: 0)),
                        clientDataJSON: clientData("webauthn.create", registering), challenge: registering, origin: ours, relyingParty: site
                    )
                }
            ),
            (
                "not CBOR",
                {
                    _ = try WebAuthn.registration(
                        attestationObject: Array(created.dropLast()), clientDataJSON: clientData("webauthn.create", registering),
                        challenge: registering, origin: ours, relyingParty: site)
                }
            ),
        ]
        for (what, attempt) in refusals {
            #expect(throws: CredentialsError.self, "\(what)") { try attempt() }
        }

        let signingIn = challenges.make(for: .signIn)
        let data = authenticatorData(flags: 0x05, count: 7)
        let client = clientData("webauthn.get", signingIn)
        let signature = try await authenticator.sign(data + Digest.sha256(client))
        let assert = { (data: [UInt8], client: [UInt8], signature: [UInt8], stored: UInt32) throws -> UInt32 in
            try WebAuthn.assertion(
                authenticatorData: data, clientDataJSON: client, signature: signature, challenge: signingIn, origin: ours,
                relyingParty: self.site, publicKey: point, signCount: stored)
        }
        #expect(try assert(data, client, signature, 0) == 7)
        #expect(throws: CredentialsError.self, "a count used before") { _ = try assert(data, client, signature, 7) }
        var tampered = signature
        tampered[tampered.count - 1] ^= 1
        #expect(throws: CredentialsError.self, "a changed signature") { _ = try assert(data, client, tampered, 0) }
        #expect(throws: CredentialsError.self, "a changed count") {
            _ = try assert(authenticatorData(flags: 0x05, count: 8), client, signature, 0)
        }
        let other = try await SoftAuthenticator.make(site: site, origin: origin)
        let others = try await other.sign(data + Digest.sha256(client))
        #expect(throws: CredentialsError.self, "another key's") { _ = try assert(data, client, others, 0) }
    }

    @Test func aChallengeIsGoodForFiveMinutesAndOnlyAsMade() {
        let challenges = PasskeyChallenges(key: .random())
        let made = challenges.make(for: .signIn, now: Date(timeIntervalSince1970: 1_000_000))
        #expect(challenges.accepts(made, for: .signIn, now: Date(timeIntervalSince1970: 1_000_299)))
        #expect(!challenges.accepts(made, for: .signIn, now: Date(timeIntervalSince1970: 1_000_300)))
        #expect(!PasskeyChallenges(key: .random()).accepts(made, for: .signIn, now: Date(timeIntervalSince1970: 1_000_000)))
        for forged in ["", "AAAA", made + "A", String(made.dropLast()) + (made.last == "A" ? "B" : "A"), "!!!!"] {
            #expect(!challenges.accepts(forged, for: .signIn, now: Date(timeIntervalSince1970: 1_000_000)), "\(forged)")
        }
    }

    @Test func cborAsAuthenticatorsWriteItAndNothingElse() throws {
        // {1: 2, -1: h'0102', "a": [true, null]}
        let map: [UInt8] = [0xa3, 0x01, 0x02, 0x20, 0x42, 0x01, 0x02, 0x61, 0x61, 0x82, 0xf5, 0xf6]
        let decoded = try CBOR.decode(map)
        #expect(decoded[1]?.integer == 2 && decoded[-1]?.byteString == [1, 2] && decoded["a"] == .array([.bool(true), .null]))
        let refused: [[UInt8]] = [
            [], [0x5f, 0x41, 0x00, 0xff], [0xc0, 0x00], [0xf9, 0x3c, 0x00], [0x5a, 0xff, 0xff, 0xff, 0xff],
            [0x9b] + [UInt8](repeating: 0xff, count: 8),
            [0x62, 0xff, 0xfe], map + [0x00], [UInt8](repeating: 0x81, count: 20) + [0x00],
        ]
        for bytes in refused { #expect(throws: CredentialsError.self, "\(bytes)") { _ = try CBOR.decode(bytes) } }
    }
}
