import Digests
import Executors
public import Foundation
import Storage
internal import Synchronization

/// Signed-in browsers: a random session token (the cookie) and a CSRF token the pages send
/// back on every change. Kept in a file too when given one, so that a restart of the server
/// does not sign out every phone; the file holds only SHA-256 digests of the tokens, so reading
/// it gives nobody a session.
///
/// Servers sharing a library keep no list (`signed`): a token names its session, its expiry
/// and an HMAC over them and the password's stamp, under a key every server shares, so any
/// server checks it in memory (a request's gate may look nowhere else) and a new password ends
/// it. Only signing out is written, to the database (`SharedCredentials`), and mirrored.
public final class SignInSessions: Sendable {
    public struct Session: Sendable, Equatable, Codable {
        public let csrfToken: String
        public let expires: Date
        /// The owner's password file as it was at sign-in (OwnerAccount.stamp): a new password
        /// ends the session at once, in a running server too.
        public let passwordStamp: String
    }

    public static let lifetime: TimeInterval = 30 * 24 * 3600
    /// Sessions by the digest of their token.
    private let state: Mutex<[String: Session]>
    private let file: URL?
    /// Where the file is written: one thread of its own, off the cooperative pool, so writers
    /// take turns and each writes the latest state.
    private let disk = BlockingExecutor(name: "sessions", threads: 1)
    private let signing: Signing?

    private struct Signing: Sendable {
        let key: [UInt8]
        let shared: SharedCredentials
    }

    /// Where a data folder keeps its sessions.
    public static func file(in dataFolder: URL) -> URL { dataFolder.appendingPathComponent("sessions.json") }

    public init(file: URL? = nil) {
        self.file = file
        let saved = file.flatMap { try? Data(contentsOf: $0) }.flatMap { try? JSONDecoder().decode([String: Session].self, from: $0) }
        state = Mutex(saved ?? [:])
        signing = nil
    }

    /// Sessions every server sharing the library accepts: signed with a key derived from
    /// `capabilityKey` (which they share), signed out through `shared`.
    public init(signedWith capabilityKey: CapabilityKey, shared: SharedCredentials) {
        file = nil
        state = Mutex([:])
        signing = Signing(key: Digest.hmacSHA256(key: capabilityKey.secret, Array("cameraroll sign-in sessions".utf8)), shared: shared)
    }

    public func create(passwordStamp: String, now: Date = Date()) async -> (token: String, session: Session) {
        if let signing { return Self.signed(signing, passwordStamp: passwordStamp, now: now) }
        let token = Hex.text(Crypto.randomBytes(32))
        let session = Session(
            csrfToken: Hex.text(Crypto.randomBytes(32)), expires: now.addingTimeInterval(Self.lifetime), passwordStamp: passwordStamp)
        state.withLock { sessions in
            // Sessions that have expired or belong to an old password go with the next sign-in.
            sessions = sessions.filter { $0.value.expires > now && $0.value.passwordStamp == passwordStamp }
            sessions[Self.digest(token)] = session
        }
        await save()
        return (token, session)
    }

    /// A signed token: `<id>.<expiry in Unix seconds>.<HMAC>`.
    private static func signed(_ signing: Signing, passwordStamp: String, now: Date) -> (token: String, session: Session) {
        let id = Hex.text(Crypto.randomBytes(16))
        let expires = Int64(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        let token = "\(id).\(expires).\(signature(signing, id: id, expires: expires, passwordStamp: passwordStamp))"
        return (token, session(signing, id: id, expires: expires, passwordStamp: passwordStamp))
    }

    private static func signature(_ signing: Signing, id: String, expires: Int64, passwordStamp: String) -> String {
        Hex.text(Digest.hmacSHA256(key: signing.key, Array("session \(id) \(expires) \(passwordStamp)".utf8)))
    }

    private static func session(_ signing: Signing, id: String, expires: Int64, passwordStamp: String) -> Session {
        Session(
            csrfToken: Hex.text(Digest.hmacSHA256(key: signing.key, Array("csrf \(id)".utf8))),
            expires: Date(timeIntervalSince1970: TimeInterval(expires)), passwordStamp: passwordStamp)
    }

    /// The id and expiry a signed token names, if its signature is good for `passwordStamp`.
    private static func verified(_ token: String, _ signing: Signing, passwordStamp: String) -> (id: String, expires: Int64)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit), let expires = Int64(parts[1]) else { return nil }
        let expected = signature(signing, id: String(parts[0]), expires: expires, passwordStamp: passwordStamp)
        guard Crypto.equal(Array(expected.utf8), Array(parts[2].utf8)) else { return nil }
        return (String(parts[0]), expires)
    }

    /// The session, if it exists, has not expired, and was opened with the current password.
    public func session(_ token: String, passwordStamp: String?, now: Date = Date()) -> Session? {
        if let signing {
            guard let passwordStamp, let (id, expires) = Self.verified(token, signing, passwordStamp: passwordStamp),
                TimeInterval(expires) > now.timeIntervalSince1970, !signing.shared.isEnded(id)
            else { return nil }
            return Self.session(signing, id: id, expires: expires, passwordStamp: passwordStamp)
        }
        let key = Self.digest(token)
        return state.withLock { sessions in
            guard let session = sessions[key] else { return nil }
            guard session.expires > now, session.passwordStamp == passwordStamp else {
                sessions[key] = nil
                return nil
            }
            return session
        }
    }

    /// Signs the token's session out (on every server, when they share the library).
    public func end(_ token: String, passwordStamp: String?) async throws(CredentialsError) {
        if let signing {
            guard let passwordStamp, let (id, expires) = Self.verified(token, signing, passwordStamp: passwordStamp) else { return }
            try await signing.shared.end(session: id, expires: expires)
            return
        }
        _ = state.withLock { $0.removeValue(forKey: Self.digest(token)) }
        await save()
    }

    private static func digest(_ token: String) -> String { Hex.text(Digest.sha256(Array(token.utf8))) }

    /// Writes the sessions as they are now. Writers take turns and each writes the latest state,
    /// so none is lost; requests looking a session up never wait for the disk. Best effort: a
    /// session that is not saved only means signing in again after a restart.
    private func save() async {
        guard let file else { return }
        await disk.run { [self] in
            let sessions = state.withLock { $0 }
            guard let data = try? JSONEncoder().encode(sessions) else { return }
            try? PrivateFile.replace(Array(data), at: file.path)
        }
    }

    /// Whether `sent` is the session's CSRF token, compared in constant time.
    public static func csrfMatches(_ session: Session, _ sent: String?) -> Bool {
        guard let sent else { return false }
        return Crypto.equal(Array(session.csrfToken.utf8), Array(sent.utf8))
    }
}
