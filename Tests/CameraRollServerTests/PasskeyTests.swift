import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import TestSupport
import Testing

/// Passkeys through the live server, asked as a phone on the LAN would (through a proxy that
/// names it): Anna adds one in Settings with her password's session, signs in with it alone, and
/// removes it; everything a copy, a stale page or another site could send is refused, and wrong
/// ones are limited as wrong passwords are.
@Suite(.serialized) struct PasskeyTests {
    let live: LiveServer
    /// A name the server goes by (another gets 421 `unknown_host`), as a relying party must be.
    let site = "localhost"
    let origin = "https://localhost"

    init() async throws { live = try await LiveServer.family() }

    /// A request from Anna's phone at `address`, to the server by its name.
    func ask(
        _ method: String, _ path: String, _ fields: [String: Any]? = nil, as session: [String: String] = [:],
        from address: String = "192.168.1.20", host: String? = nil
    )
        async throws -> LiveServer.Reply
    {
        let headers = session.merging(["X-Forwarded-For": address, "Host": host ?? site]) { $1 }
        return try await live.request(
            method, path, body: try fields.map { try JSONSerialization.data(withJSONObject: $0) }, headers: headers)
    }

    /// The session a sign-in's reply starts: its cookie and CSRF token.
    func session(_ reply: LiveServer.Reply) throws -> [String: String] {
        [
            "Cookie": try #require(reply.header("Set-Cookie")?.split(separator: ";").first.map(String.init)),
            "X-CSRF-Token": try #require(reply.json["csrfToken"] as? String),
        ]
    }

    func passkeySignIn(_ authenticator: SoftAuthenticator, count: UInt32, from address: String = "192.168.1.20") async throws
        -> LiveServer.Reply
    {
        let options = try await ask("POST", "/api/session/passkey/options", from: address)
        #expect(
            options.status == 200 && options.json["rpId"] as? String == site && options.json["userVerification"] as? String == "required")
        let challenge = try #require(options.json["challenge"] as? String)
        let answer = try await authenticator.assertion(challenge, count: count)
        return try await ask(
            "POST", "/api/session/passkey",
            [
                "challenge": challenge, "id": Base64URL.text(authenticator.credentialID),
                "clientDataJSON": Base64URL.text(answer.clientDataJSON), "authenticatorData": Base64URL.text(answer.authenticatorData),
                "signature": Base64URL.text(answer.signature),
            ], from: address)
    }

    func register(_ authenticator: SoftAuthenticator, named name: String, as anna: [String: String]) async throws -> LiveServer.Reply {
        let options = try await ask("POST", "/api/passkeys/options", as: anna)
        #expect(options.status == 200, "\(options.text)")
        let challenge = try #require(options.json["challenge"] as? String)
        let answer = authenticator.registration(challenge)
        return try await ask(
            "POST", "/api/passkeys",
            [
                "name": name, "challenge": challenge, "clientDataJSON": Base64URL.text(answer.clientDataJSON),
                "attestationObject": Base64URL.text(answer.attestationObject),
            ], as: anna)
    }

    @Test func aPasskeySignsInInsteadOfThePasswordUntilRemoved() async throws {
        let anna = try session(try await ask("POST", "/api/session", ["user": "anna", "password": "anna's password"]))
        let options = try await ask("POST", "/api/passkeys/options", as: anna)
        let rp = options.json["rp"] as? [String: Any]
        let user = options.json["user"] as? [String: Any]
        #expect(rp?["id"] as? String == site && user?["name"] as? String == "anna")
        #expect((options.json["pubKeyCredParams"] as? [[String: Any]])?.first?["alg"] as? Int == -7)
        #expect((options.json["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")

        let phone = try await SoftAuthenticator.make(site: site, origin: origin)
        let added = try await register(phone, named: "Anna's phone", as: anna)
        #expect(added.status == 201, "\(added.text)")
        let listed = try #require(added.json["passkeys"] as? [[String: Any]])
        #expect(listed.count == 1 && listed.first?["name"] as? String == "Anna's phone" && listed.first?["lastUsed"] == nil)
        #expect(!added.text.contains("publicKey"), "the list never holds a key")
        let again = try await register(phone, named: "twice", as: anna)
        #expect(again.status == 409 && again.json["code"] as? String == "passkey_taken")
        let excluded = try await ask("POST", "/api/passkeys/options", as: anna).json["excludeCredentials"] as? [[String: Any]]
        #expect(excluded?.compactMap { $0["id"] as? String } == [Base64URL.text(phone.credentialID)], "the browser is told it has one")

        // Signed in with the passkey alone, as herself, on another device's session.
        let signedIn = try await passkeySignIn(phone, count: 1)
        #expect(signedIn.status == 200, "\(signedIn.text)")
        let byPasskey = try session(signedIn)
        let me = try await ask("GET", "/api/session", as: byPasskey)
        #expect((me.json["user"] as? [String: Any])?["name"] as? String == "anna")
        let used = try await ask("GET", "/api/passkeys", as: byPasskey).json["passkeys"] as? [[String: Any]]
        #expect(used?.first?["lastUsed"] as? String != nil)

        // A copy's count, a count going back, an old challenge, and another site's are refused.
        for count: UInt32 in [1, 0] {
            let copied = try await passkeySignIn(phone, count: count)
            #expect(copied.status == 401 && copied.json["code"] as? String == "passkey_refused", "count \(count)")
        }
        let atAnAddress = try await ask("POST", "/api/session/passkey/options", host: "192.168.1.5:8443")
        #expect(atAnAddress.status == 400 && atAnAddress.json["code"] as? String == "passkeys_need_a_name")
        let elsewhere = try await SoftAuthenticator.make(site: "evil.example", origin: "https://evil.example")
        let foreign = try await register(elsewhere, named: "theirs", as: anna)
        #expect(foreign.status == 400 && foreign.json["code"] as? String == "invalid_passkey")
        let stale = try await ask(
            "POST", "/api/passkeys",
            [
                "name": "stale", "challenge": "AAAA", "clientDataJSON": "AAAA", "attestationObject": "AAAA",
            ], as: anna)
        #expect(stale.status == 400 && stale.json["code"] as? String == "stale_challenge")

        // Nobody else sees or removes hers; she removes it, and it no longer signs in.
        let owner = try session(try await ask("POST", "/api/session", ["password": "the owner's password"]))
        #expect((try await ask("GET", "/api/passkeys", as: owner).json["passkeys"] as? [Any])?.isEmpty == true)
        let id = Base64URL.text(phone.credentialID)
        let taken = try await ask("DELETE", "/api/passkeys/\(id)", as: owner)
        #expect(taken.status == 404 && taken.json["code"] as? String == "unknown_passkey")
        let removed = try await ask("DELETE", "/api/passkeys/\(id)", as: anna)
        #expect(removed.status == 200 && (removed.json["passkeys"] as? [Any])?.isEmpty == true)
        #expect(try await passkeySignIn(phone, count: 2).status == 401)
        #expect(try await ask("GET", "/api/passkeys").status == 401, "signed in first")
    }

    /// A passkey refused counts as a wrong password does: enough from one address lock it out,
    /// even with the right passkey, while another address signs in.
    @Test func refusedPasskeysLockOutAsWrongPasswordsDo() async throws {
        let anna = try session(try await ask("POST", "/api/session", ["user": "anna", "password": "anna's password"]))
        let phone = try await SoftAuthenticator.make(site: site, origin: origin)
        #expect(try await register(phone, named: "Anna's phone", as: anna).status == 201)
        let stranger = try await SoftAuthenticator.make(site: site, origin: origin)
        for _ in 0..<5 { #expect(try await passkeySignIn(stranger, count: 1, from: "192.0.2.9").status == 401) }
        let locked = try await passkeySignIn(phone, count: 1, from: "192.0.2.9")
        #expect(locked.status == 429 && locked.json["code"] as? String == "locked_out" && locked.header("Retry-After") != nil)
        #expect(try await passkeySignIn(phone, count: 2, from: "198.51.100.7").status == 200)
    }
}
