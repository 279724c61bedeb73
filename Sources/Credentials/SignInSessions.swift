public import Foundation
import Storage
internal import Synchronization

/// Signed-in browsers: a random session token (the cookie) and a CSRF token the pages send
/// back on every change. Kept in a file too when given one, so that a restart of the server
/// does not sign out every phone; the file holds only SHA-256 digests of the tokens, so reading
/// it gives nobody a session.
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
    private let writing = Mutex(())

    /// Where a data folder keeps its sessions.
    public static func file(in dataFolder: URL) -> URL { dataFolder.appendingPathComponent("sessions.json") }

    public init(file: URL? = nil) {
        self.file = file
        let saved = file.flatMap { try? Data(contentsOf: $0) }.flatMap { try? JSONDecoder().decode([String: Session].self, from: $0) }
        state = Mutex(saved ?? [:])
    }

    public func create(passwordStamp: String, now: Date = Date()) -> (token: String, session: Session) {
        let token = Crypto.randomBytes(32).hex
        let session = Session(
            csrfToken: Crypto.randomBytes(32).hex, expires: now.addingTimeInterval(Self.lifetime), passwordStamp: passwordStamp)
        state.withLock { sessions in
            // Sessions that have expired or belong to an old password go with the next sign-in.
            sessions = sessions.filter { $0.value.expires > now && $0.value.passwordStamp == passwordStamp }
            sessions[Self.digest(token)] = session
        }
        save()
        return (token, session)
    }

    /// The session, if it exists, has not expired, and was opened with the current password.
    public func session(_ token: String, passwordStamp: String?, now: Date = Date()) -> Session? {
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

    public func end(_ token: String) {
        _ = state.withLock { $0.removeValue(forKey: Self.digest(token)) }
        save()
    }

    private static func digest(_ token: String) -> String { Crypto.sha256(Array(token.utf8)).hex }

    /// Writes the sessions as they are now. Writers take turns and each writes the latest state,
    /// so none is lost; requests looking a session up never wait for the disk. Best effort: a
    /// session that is not saved only means signing in again after a restart.
    private func save() {
        guard let file else { return }
        writing.withLock { _ in
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
