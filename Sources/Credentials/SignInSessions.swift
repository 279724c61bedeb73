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
/// Servers sharing a library keep no list (`signed`): a token names its session, its person, its
/// expiry and an HMAC over them and the password's stamp, under a key every server shares, so any
/// server checks it in memory (a request's gate may look nowhere else) and a new password ends
/// it. Only signing out is written, to the database (`SharedCredentials`), and mirrored.
public final class SignInSessions: Sendable {
    public struct Session: Sendable, Equatable, Codable {
        /// Who signed in (`UserAccounts.User.id`).
        public let user: Int
        public let csrfToken: String
        public let expires: Date
        /// The person's password as it was at sign-in (`UserAccounts.stamp(of:)`): a new
        /// password ends the session at once, in a running server too.
        public let passwordStamp: String
    }

    /// The current password stamp of a person, nil for nobody (or nobody with a password).
    public typealias Stamps = @Sendable (Int) -> String?

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

    public func create(user: Int, passwordStamp: String, now: Date = Date()) async -> (token: String, session: Session) {
        if let signing { return Self.signed(signing, user: user, passwordStamp: passwordStamp, now: now) }
        let token = Hex.text(Crypto.randomBytes(32))
        let session = Session(
            user: user, csrfToken: Hex.text(Crypto.randomBytes(32)), expires: now.addingTimeInterval(Self.lifetime),
            passwordStamp: passwordStamp)
        state.withLock { sessions in
            // Sessions that have expired go with the next sign-in (those of an old password when
            // they are next asked for).
            sessions = sessions.filter { $0.value.expires > now }
            sessions[Self.digest(token)] = session
        }
        await save()
        return (token, session)
    }

    /// A signed token: `<id>.<user>.<expiry in Unix seconds>.<HMAC>`.
    private static func signed(_ signing: Signing, user: Int, passwordStamp: String, now: Date) -> (token: String, session: Session) {
        let id = Hex.text(Crypto.randomBytes(16))
        let expires = Int64(now.addingTimeInterval(lifetime).timeIntervalSince1970)
        let signed = Signed(id: id, user: user, expires: expires)
        return (
            "\(id).\(user).\(expires).\(signature(signing, signed, passwordStamp: passwordStamp))",
            session(signing, signed, passwordStamp: passwordStamp)
        )
    }

    /// What a signed token names.
    private struct Signed {
        let id: String
        let user: Int
        let expires: Int64
    }

    private static func signature(_ signing: Signing, _ signed: Signed, passwordStamp: String) -> String {
        Hex.text(Digest.hmacSHA256(key: signing.key, Array("session \(signed.id) \(signed.user) \(signed.expires) \(passwordStamp)".utf8)))
    }

    private static func session(_ signing: Signing, _ signed: Signed, passwordStamp: String) -> Session {
        Session(
            user: signed.user, csrfToken: Hex.text(Digest.hmacSHA256(key: signing.key, Array("csrf \(signed.id)".utf8))),
            expires: Date(timeIntervalSince1970: TimeInterval(signed.expires)), passwordStamp: passwordStamp)
    }

    /// What a signed token names, if its signature is good for its person's current password.
    private static func verified(_ token: String, _ signing: Signing, stamps: Stamps) -> (Signed, stamp: String)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit), parts[1].count <= 18,
            let user = Int(parts[1]), user > 0, let expires = Int64(parts[2]), let stamp = stamps(user)
        else { return nil }
        let signed = Signed(id: String(parts[0]), user: user, expires: expires)
        let expected = signature(signing, signed, passwordStamp: stamp)
        guard Crypto.equal(Array(expected.utf8), Array(parts[3].utf8)) else { return nil }
        return (signed, stamp)
    }

    /// The session, if it exists, has not expired, and was opened with its person's current password.
    public func session(_ token: String, stamps: Stamps, now: Date = Date()) -> Session? {
        if let signing {
            guard let (signed, stamp) = Self.verified(token, signing, stamps: stamps),
                TimeInterval(signed.expires) > now.timeIntervalSince1970, !signing.shared.isEnded(signed.id)
            else { return nil }
            return Self.session(signing, signed, passwordStamp: stamp)
        }
        let key = Self.digest(token)
        return state.withLock { sessions in
            guard let session = sessions[key] else { return nil }
            guard session.expires > now, session.passwordStamp == stamps(session.user) else {
                sessions[key] = nil
                return nil
            }
            return session
        }
    }

    /// Signs the token's session out (on every server, when they share the library).
    public func end(_ token: String, stamps: Stamps) async throws(CredentialsError) {
        if let signing {
            guard let (signed, _) = Self.verified(token, signing, stamps: stamps) else { return }
            try await signing.shared.end(session: signed.id, expires: signed.expires)
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
