import Credentials
import Foundation
import ImagePicker

/// Picker sessions in progress: each a `PickerSession` state machine, found by an unguessable
/// id, forgotten an hour after its last use. Whoever presented a picker long-polls its session
/// until it is finished or cancelled.
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

/// The sessions of one server, in its memory.
actor PickerSessions: PickerSessionStore {
    private struct Entry {
        var session: PickerSession
        var lastUsed: Date
        /// The address of a caller who is not the owner, for its quota; nil for the owner.
        var creator: String?
        /// The other site the picker is for, when it is not for CameraRoll's own pages.
        var client: AllowedApps.App?
        /// Long polls waiting for the session to end, by token.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private var entries: [String: Entry] = [:]
    private var nextToken = 0

    func create(_ configuration: PickerConfiguration, creator: String?, client: AllowedApps.App? = nil) throws(PickerError) -> (
        id: String, session: PickerSession
    ) {
        sweep()
        let strangers = entries.values.filter { $0.creator != nil }
        guard entries.count < Self.limit,
            creator == nil || (strangers.count < Self.strangersLimit && strangers.filter { $0.creator == creator }.count < Self.perStranger)
        else {
            throw Self.tooMany
        }
        let session = try PickerSession(configuration: configuration)
        let id = Self.newID()
        entries[id] = Entry(session: session, lastUsed: Date(), creator: creator, client: client)
        return (id, session)
    }

    private func session(_ id: String) -> PickerSession? {
        sweep()
        entries[id]?.lastUsed = Date()
        return entries[id]?.session
    }

    func client(of id: String) -> AllowedApps.App? { entries[id]?.client }

    func handle(_ id: String, _ event: PickerSession.Event) throws(PickerError) -> (PickerSession, [PickerSession.Action]) {
        guard var entry = entries[id] else { throw Self.notFound }
        let actions = try entry.session.handle(event)
        entry.lastUsed = Date()
        if entry.session.state.isFinal {
            for waiter in entry.waiters.values { waiter.resume() }
            entry.waiters = [:]
        }
        entries[id] = entry
        return (entry.session, actions)
    }

    func wait(_ id: String, seconds: Double) async -> PickerSession? {
        guard let entry = entries[id] else { return nil }
        if !entry.session.state.isFinal && seconds > 0 {
            nextToken += 1
            let token = nextToken
            await withCheckedContinuation { continuation in
                entries[id]?.waiters[token] = continuation
                Task { [weak self] in
                    try? await Task.sleep(for: .seconds(seconds))
                    await self?.expire(id, token)
                }
            }
        }
        return session(id)
    }

    private func expire(_ id: String, _ token: Int) {
        entries[id]?.waiters.removeValue(forKey: token)?.resume()
    }

    private func sweep() {
        let cutoff = Date().addingTimeInterval(-Self.lifetime)
        for (id, entry) in entries where entry.lastUsed < cutoff && entry.waiters.isEmpty {
            entries[id] = nil
        }
    }
}
