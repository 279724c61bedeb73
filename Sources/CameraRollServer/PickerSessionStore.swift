import Credentials
import Foundation
import IPAddress
import ImagePicker
import PhotoLibrary

/// Picker sessions in progress: each a `PickerSession` state machine, found by an unguessable
/// id, forgotten an hour after its last use. Whoever presented a picker long-polls its session
/// until it is finished or cancelled. They are kept in the library's database
/// (`StoredPickerSessions`), so an open picker outlives a restart of the server.
protocol PickerSessionStore: Sendable {
    /// A new session; `creator` is the network of a caller who is not the owner (for its
    /// quota: see `creator(of:)`), `client` the other site the picker is for, `owner` the
    /// person it is for when one presents it signed in (else whoever acts first).
    func create(_ configuration: PickerConfiguration, creator: String?, client: AllowedApps.App?, owner: Owner?) async throws(PickerError)
        -> (
            id: String, session: PickerSession
        )
    /// Waits until the session ends or `seconds` pass, and returns it as it then is; nil when
    /// there is no such session.
    func wait(_ id: String, seconds: Double) async throws(PickerError) -> PickerSession?
    /// Applies an event of `owner`'s: the first person to act on a session takes it, and to
    /// anyone else it is no longer there. nil: a step nobody in particular takes (another
    /// site's cancel).
    func handle(_ id: String, _ event: PickerSession.Event, by owner: Owner?) async throws(PickerError) -> (
        PickerSession, [PickerSession.Action]
    )
    /// The other site the session is for.
    func client(of id: String) async throws(PickerError) -> AllowedApps.App?
    /// What the session was presented with, read without renewing it; nil when there is no such session.
    func configuration(of id: String) async throws(PickerError) -> PickerConfiguration?
}

extension PickerSessionStore {
    static var lifetime: TimeInterval { 3600 }
    /// Anyone may present a picker, so open sessions are bounded: storage stays small whoever
    /// asks. Callers who are not the owner take from one of two pools, each a third: the sites
    /// the owner allowed, and everyone else, so strangers never take the sites' slots nor either
    /// the owner's (who signs in, or is this computer). In each, a network (one IPv6 /64, whose
    /// every address its holder can use; an IPv4 address) takes a few.
    static var limit: Int { 900 }
    static var poolLimit: Int { 300 }
    static var perNetwork: Int { 10 }

    /// What a caller who is not the owner is counted as: its network (`IPAddress.network`).
    static func creator(of address: String) -> String {
        IPAddress(address)?.network.description ?? address
    }

    /// An unguessable session id.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined()
    }

    static var tooMany: PickerError {
        PickerError(.tooManySessions, "Too many pickers are open; finish or cancel one, or try again later.")
    }

    static var notFound: PickerError { PickerError(.notFound, "There is no picker session with that id (it may have expired).") }
}
