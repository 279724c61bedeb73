import Credentials
import Foundation
import HTTPServer
import IPAddress

/// Passkeys: a person adds them in Settings and signs in with one instead of a password. Any
/// server of the library checks a ceremony it did not start: challenges are signed, not kept
/// (`PasskeyChallenges`), and the passkeys are kept with the people. The relying party is the
/// name the page was opened at, which is why a passkey needs one (not an IP address).
extension WebApp {
    func addPasskeyRoutes(to router: inout Router) {
        router.get("/api/passkeys") { request in .json(PasskeysJSON(try person(request))) }
        router.post("/api/passkeys/options") { request in
            let person = try person(request)
            return .json(
                CreationOptionsJSON(
                    challenge: access.passkeyChallenges.make(for: .register(user: person.id)),
                    rp: .init(id: try Self.relyingParty(request), name: "CameraRoll"),
                    user: .init(id: Base64URL.text(Array("\(person.id)".utf8)), name: person.name, displayName: person.name),
                    excludeCredentials: (person.passkeys ?? []).map { .init(id: $0.id) }))
        }
        router.post("/api/passkeys", body: .file(maxBytes: Self.mostPasskeyBytes)) { request in
            struct Body: Decodable {
                var name: String
                var challenge: String
                var clientDataJSON: String
                var attestationObject: String
            }
            let (person, body) = (try person(request), try Self.decode(Body.self, request.body))
            guard access.passkeyChallenges.accepts(body.challenge, for: .register(user: person.id)) else { throw Self.staleChallenge }
            let relyingParty = try Self.relyingParty(request)
            let registered = try Self.checked { () throws(CredentialsError) in
                try WebAuthn.registration(
                    attestationObject: try Self.bytes(body.attestationObject), clientDataJSON: try Self.bytes(body.clientDataJSON),
                    challenge: body.challenge, origin: { Access.sameOrigin($0, request) }, relyingParty: relyingParty)
            }
            _ = try await answering { () async throws(CredentialsError) in
                try await access.users.addPasskey(registered, named: body.name, to: person.id)
            }
            return .json(PasskeysJSON(try self.person(request)), status: 201)
        }
        router.delete("/api/passkeys/:id") { request in
            let person = try person(request)
            try await answering { () async throws(CredentialsError) in
                try await access.users.removePasskey(request.parameter("id"), of: person.id)
            }
            return .json(PasskeysJSON(try self.person(request)))
        }
        router.post("/api/session/passkey/options") { request in
            .json(
                RequestOptionsJSON(challenge: access.passkeyChallenges.make(for: .signIn), rpId: try Self.relyingParty(request)))
        }
        router.post("/api/session/passkey", body: .file(maxBytes: Self.mostPasskeyBytes)) { request in
            try await signInWithPasskey(request)
        }
    }

    /// A passkey's answer is a few hundred bytes; an attestation with certificates a few KB.
    private static let mostPasskeyBytes = 65536

    private static let staleChallenge = HTTPError(
        400, "stale_challenge", "That took too long, or the page is old: try again.")

    /// Like a wrong password: counted against the address, and the same for every reason, so
    /// that the answer does not tell a passkey that is here from one that is not.
    private static let refusedPasskey = HTTPError(401, "passkey_refused", "That passkey does not sign in here.")

    private func signInWithPasskey(_ request: Request) async throws -> Response {
        struct Body: Decodable {
            var challenge: String
            var id: String
            var clientDataJSON: String
            var authenticatorData: String
            var signature: String
        }
        let body = try Self.decode(Body.self, request.body)
        let address = request.remoteAddress
        if let wait = try await answering({ () async throws(CredentialsError) in try await access.lockOut.check(address) }) {
            throw LockedOut(wait: wait)
        }
        let relyingParty = try Self.relyingParty(request)
        let found = try await answering { () async throws(CredentialsError) in
            try await access.disk.run { () throws(CredentialsError) in try access.users.passkey(id: body.id) }
        }
        do throws(CredentialsError) {
            guard access.passkeyChallenges.accepts(body.challenge, for: .signIn), let (person, passkey) = found,
                let stamp = access.users.stamp(of: person.id)
            else { throw CredentialsError(.invalidPasskey, "No passkey of this library's, for a challenge of its, signed that.") }
            let count = try WebAuthn.assertion(
                authenticatorData: try Self.bytes(body.authenticatorData), clientDataJSON: try Self.bytes(body.clientDataJSON),
                signature: try Self.bytes(body.signature), challenge: body.challenge, origin: { Access.sameOrigin($0, request) },
                relyingParty: relyingParty, publicKey: passkey.publicKey, signCount: passkey.signCount)
            try await access.users.signedIn(with: passkey.id, count: count)
            try await access.lockOut.succeeded(address)
            return await startSession(for: person, stamp: stamp)
        } catch  where error.code == .invalidPasskey || error.code == .unknownPasskey {
            _ = try await answering { () async throws(CredentialsError) in try await access.lockOut.count(address) }
            throw Self.refusedPasskey
        } catch {
            throw ClientError(error) ?? error
        }
    }

    /// The relying party of a page at this request's Host: its name without the port. WebAuthn
    /// takes no IP address for one.
    static func relyingParty(_ request: Request) throws(HTTPError) -> String {
        let host = (request.headers["Host"] ?? "").lowercased()
        let name = host.hasPrefix("[") ? host : String(host.split(separator: ":", maxSplits: 1).first ?? "")
        guard !name.isEmpty, !name.hasPrefix("["), IPAddress(name) == nil else {
            throw HTTPError(
                400, "passkeys_need_a_name",
                "Passkeys work at a name, not an address: open CameraRoll at its name (localhost on its own computer, or the name --name gives it)."
            )
        }
        return name
    }

    private static func bytes(_ text: String) throws(CredentialsError) -> [UInt8] {
        guard let bytes = Base64URL.bytes(text) else { throw CredentialsError(.invalidPasskey, "A passkey's answer is base64url.") }
        return bytes
    }

    /// A registration's refusal is the asker's own mistake (another device, a stale page): said as it is.
    private static func checked<T>(_ body: () throws(CredentialsError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw ClientError(error) ?? error
        }
    }
}

/// `PublicKeyCredentialCreationOptionsJSON`, as `PublicKeyCredential.parseCreationOptionsFromJSON`
/// reads it: a discoverable ES256 passkey that verifies its user, without attestation.
struct CreationOptionsJSON: Encodable {
    struct Party: Encodable {
        var id: String
        var name: String
    }
    struct User: Encodable {
        var id: String
        var name: String
        var displayName: String
    }
    struct Parameter: Encodable {
        var type = "public-key"
        var alg = -7
    }
    struct Descriptor: Encodable {
        var type = "public-key"
        var id: String
    }
    struct Selection: Encodable {
        var residentKey = "required"
        var requireResidentKey = true
        var userVerification = "required"
    }
    var challenge: String
    var rp: Party
    var user: User
    var pubKeyCredParams = [Parameter()]
    var timeout = Int(PasskeyChallenges.lifetime * 1000)
    var excludeCredentials: [Descriptor]
    var authenticatorSelection = Selection()
    var attestation = "none"
}

/// `PublicKeyCredentialRequestOptionsJSON`: any passkey of this site's (the browser offers the
/// person's own), verified.
struct RequestOptionsJSON: Encodable {
    var challenge: String
    var rpId: String
    var timeout = Int(PasskeyChallenges.lifetime * 1000)
    var userVerification = "required"
    var allowCredentials: [CreationOptionsJSON.Descriptor] = []
}

struct PasskeysJSON: Encodable {
    struct Entry: Encodable {
        var id: String
        var name: String
        var created: String
        var lastUsed: String?
    }
    var passkeys: [Entry]

    init(_ person: UserAccounts.User) {
        let format = Date.ISO8601FormatStyle()
        passkeys = (person.passkeys ?? []).map {
            Entry(id: $0.id, name: $0.name, created: $0.created.formatted(format), lastUsed: $0.lastUsed?.formatted(format))
        }
    }
}
