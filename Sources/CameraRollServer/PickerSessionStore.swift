import Credentials
import Foundation
import ImagePicker

/// Picker sessions in progress: each a `PickerSession` state machine, found by an unguessable
/// id, forgotten an hour after its last use. Whoever presented a picker long-polls its session
/// until it is finished or cancelled. They are kept in the library's database
/// (`StoredPickerSessions`), so an open picker outlives a restart of the server.
protocol PickerSessionStore: Sendable {
    /// A new session; `creator` is the address of a caller who is not the owner (for its
    /// quota), `client` the other site the picker is for.
    func create(_ configuration: PickerConfiguration, creator: String?, client: AllowedApps.App?) async throws(PickerError) -> (
        id: String, session: PickerSession
    )
    /// Waits until the session ends or `seconds` pass, and returns it as it then is; nil when
    /// there is no such session.
    func wait(_ id: String, seconds: Double) async throws(PickerError) -> PickerSession?
    func handle(_ id: String, _ event: PickerSession.Event) async throws(PickerError) -> (PickerSession, [PickerSession.Action])
    /// The other site the session is for.
    func client(of id: String) async throws(PickerError) -> AllowedApps.App?
    /// What the session was presented with, read without renewing it; nil when there is no such session.
    func configuration(of id: String) async throws(PickerError) -> PickerConfiguration?
}

extension PickerSessionStore {
    static var lifetime: TimeInterval { 3600 }
    /// Anyone may present a picker, so open sessions are bounded: storage stays small whoever
    /// asks, and callers who are not the owner can take only part of it, a little each.
    static var limit: Int { 1000 }
    static var strangersLimit: Int { 500 }
    static var perStranger: Int { 10 }

    /// An unguessable session id.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined()
    }

    static var tooMany: PickerError {
        PickerError("too_many_sessions", "Too many pickers are open; finish or cancel one, or try again later.")
    }

    static var notFound: PickerError { PickerError("not_found", "There is no picker session with that id (it may have expired).") }
}
