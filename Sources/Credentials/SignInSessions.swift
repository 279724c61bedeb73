public import Foundation
internal import Synchronization

/// Signed-in browsers: a random session token (the cookie) and a CSRF token the pages send
/// back on every change. Kept in memory: a restart signs everyone out, which loses nothing.
public final class SignInSessions: Sendable {
    public struct Session: Sendable, Equatable {
        public let csrfToken: String
        public let expires: Date
    }

    public static let lifetime: TimeInterval = 30 * 24 * 3600
    private let state = Mutex<[String: Session]>([:])

    public init() {}

    public func create(now: Date = Date()) -> (token: String, session: Session) {
        let token = Crypto.randomBytes(32).hex
        let session = Session(csrfToken: Crypto.randomBytes(32).hex, expires: now.addingTimeInterval(Self.lifetime))
        state.withLock { sessions in
            sessions = sessions.filter { $0.value.expires > now }
            sessions[token] = session
        }
        return (token, session)
    }

    public func session(_ token: String, now: Date = Date()) -> Session? {
        state.withLock { sessions in
            guard let session = sessions[token] else { return nil }
            guard session.expires > now else {
                sessions[token] = nil
                return nil
            }
            return session
        }
    }

    public func end(_ token: String) {
        _ = state.withLock { $0.removeValue(forKey: token) }
    }

    /// Whether `sent` is the session's CSRF token, compared in constant time.
    public static func csrfMatches(_ session: Session, _ sent: String?) -> Bool {
        guard let sent else { return false }
        return Crypto.equal(Array(session.csrfToken.utf8), Array(sent.utf8))
    }
}
