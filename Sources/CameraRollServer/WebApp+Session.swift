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
                    passwordSet: access.owner.hasPassword))
        }
        router.post("/api/session", body: .file(maxBytes: 4096)) { request in try await signIn(request) }
        router.delete("/api/session") { request in
            if let token = Access.cookie(Access.cookie, in: request) {
                try await answering { () async throws(CredentialsError) in
                    try await access.sessions.end(token, passwordStamp: access.owner.stamp())
                }
            }
            var response = Response.json(["signedIn": false])
            response.headers["Set-Cookie"] = "\(Access.cookie)=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict"
            return response
        }
    }

    private func signIn(_ request: Request) async throws -> Response {
        let address = request.remoteAddress
        if let wait = try await answering({ () async throws(CredentialsError) in try await access.lockOut.check(address) }) {
            let minutes = Int((wait / 60).rounded(.up))
            var response = HTTPError(
                429, "locked_out", "Too many wrong passwords. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
            ).response
            response.headers["Retry-After"] = String(Int(wait.rounded(.up)))
            return response
        }
        struct Body: Decodable { var password: String }
        let password = try Self.decode(Body.self, request.body).password
        let hash: PasswordHash?
        hash = try await answering { () async throws(CredentialsError) in
            try await access.disk.run { () throws(CredentialsError) in try access.owner.passwordHash() }
        }
        guard let hash else {
            throw HTTPError(409, "no_password", "No owner password is set yet. On the server's computer, run `cameraroll passwd`.")
        }
        // Counted as a failure before the slow check, so that guesses sent at once all count.
        let attempt = try await answering { () async throws(CredentialsError) in try await access.lockOut.count(address) }
        // Waiting holds no thread; a cancelled wait only ends sooner.
        try? await Task.sleep(for: .seconds(attempt.delay))
        guard await access.passwordChecks.verify(password, against: hash, suspicion: attempt.suspicion) else {
            throw HTTPError(401, "wrong_password", "That is not the owner's password.")
        }
        try await answering { () async throws(CredentialsError) in try await access.lockOut.succeeded(address) }
        let (token, session) = await access.sessions.create(passwordStamp: access.owner.stamp() ?? "")
        var response = Response.json(SessionStateJSON(local: false, signedIn: true, csrfToken: session.csrfToken, passwordSet: true))
        response.headers["Set-Cookie"] =
            "\(Access.cookie)=\(token); Path=/; Max-Age=\(Int(SignInSessions.lifetime)); HttpOnly; Secure; SameSite=Strict"
        return response
    }
}

struct SessionStateJSON: Encodable {
    /// Asked from the server's own machine, which needs no sign-in.
    var local: Bool
    var signedIn: Bool
    var csrfToken: String?
    var passwordSet: Bool
}
