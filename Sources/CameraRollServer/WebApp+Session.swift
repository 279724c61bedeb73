import Credentials
import Foundation
import HTTPServer

extension WebApp {
    /// Signing in and out. The password is checked off the server's threads (scrypt is slow on
    /// purpose) and only while the asker is not locked out; nobody else is ever refused a check,
    /// however many guesses wait (see `LockOut` and `PasswordChecks`).
    func addSessionRoutes(to router: inout Router) {
        router.get("/api/session") { request in
            let session = access.session(of: request)
            return .json(
                SessionStateJSON(
                    local: access.isOwnersMachine(request), signedIn: session != nil, csrfToken: session?.csrfToken,
                    passwordSet: (try? access.users.firstAdmin())?.password != nil, user: access.person(request)?.summary))
        }
        router.post("/api/session", body: .file(maxBytes: 4096)) { request in try await signIn(request) }
        router.delete("/api/session") { request in
            if let token = Access.cookie(Access.cookie, in: request) {
                try await answering { () async throws(CredentialsError) in
                    try await access.sessions.end(token, stamps: access.stamps)
                }
            }
            var response = Response.json(["signedIn": false])
            response.headers["Set-Cookie"] = "\(Access.cookie)=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict"
            return response
        }
    }

    private func signIn(_ request: Request) async throws -> Response {
        // Without a name, the first admin: how one signed in before there were people.
        struct Body: Decodable {
            var user: String?
            var password: String
        }
        let body = try Self.decode(Body.self, request.body)
        let person = try await answering { () async throws(CredentialsError) in
            try await access.disk.run { () throws(CredentialsError) in
                if let name = body.user { return try access.users.user(named: name) }
                return try access.users.firstAdmin()
            }
        }
        if body.user == nil, person?.password == nil {
            throw HTTPError(409, "no_password", "No owner password is set yet. On the server's computer, run `cameraroll passwd`.")
        }
        let verified = try await guess(body.password, against: person?.password, from: request.remoteAddress)
        guard verified, let person, let stamp = access.users.stamp(of: person.id) else {
            throw HTTPError(
                401, "wrong_password", body.user == nil ? "That is not the owner's password." : "That name and password do not match.")
        }
        return await startSession(for: person, stamp: stamp)
    }

    /// A new session for someone who proved who they are (a password, a passkey), as its cookie.
    func startSession(for person: UserAccounts.User, stamp: String) async -> Response {
        let (token, session) = await access.sessions.create(user: person.id, passwordStamp: stamp)
        var response = Response.json(
            SessionStateJSON(local: false, signedIn: true, csrfToken: session.csrfToken, passwordSet: true, user: person.summary))
        response.headers["Set-Cookie"] =
            "\(Access.cookie)=\(token); Path=/; Max-Age=\(Int(SignInSessions.lifetime)); HttpOnly; Secure; SameSite=Strict"
        return response
    }
}

extension WebApp {
    /// A password guess from `address`, checked as every one is (a sign-in's, a shared link's):
    /// refused while the address is locked out, counted as a failure before the slow check so
    /// that guesses sent at once all count, and waited on as more fail. Without a `hash` (a name
    /// nobody has, someone without a password) it costs what a wrong password does, so the
    /// answer's time does not tell who is here.
    func guess(_ password: String, against hash: PasswordHash?, from address: String) async throws -> Bool {
        if let wait = try await answering({ () async throws(CredentialsError) in try await access.lockOut.check(address) }) {
            throw LockedOut(wait: wait)
        }
        let attempt = try await answering { () async throws(CredentialsError) in try await access.lockOut.count(address) }
        // Waiting holds no thread; a cancelled wait only ends sooner.
        try? await Task.sleep(for: .seconds(attempt.delay))
        let verified = await access.passwordChecks.verify(password, against: hash ?? .nobodys, suspicion: attempt.suspicion)
        guard verified, hash != nil else { return false }
        try await answering { () async throws(CredentialsError) in try await access.lockOut.succeeded(address) }
        return true
    }
}

/// Too many wrong passwords from one address: when it may try again.
struct LockedOut: HTTPResponseError {
    let wait: Double
    var status: Int { 429 }
    var code: String { "locked_out" }
    var message: String {
        let minutes = Int((wait / 60).rounded(.up))
        return "Too many wrong passwords. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
    }
    var response: Response {
        var response = Response.bytes(jsonBody, contentType: "application/json; charset=utf-8", status: status)
        response.headers["Retry-After"] = String(Int(wait.rounded(.up)))
        return response
    }
}

struct SessionStateJSON: Encodable {
    /// Asked from the server's own machine, which needs no sign-in.
    var local: Bool
    var signedIn: Bool
    var csrfToken: String?
    /// Whether the first admin has a password, without which nobody can sign in.
    var passwordSet: Bool
    /// Who asks: the person signed in, or this computer's (the first admin); absent for anyone else.
    var user: UserAccounts.User.Summary?
}
