import Credentials
import Foundation
import ImagePicker
import PhotoLibrary
import Storage

/// The picker sessions, in the library's database (`picker_sessions`): a picker outlives a
/// restart of the server, and when servers share the library, one presented through one server
/// may be opened, finished and long-polled through any. A change wakes the long polls this
/// server holds for that session and is announced in its transaction; each server's one
/// listening connection wakes the long polls it holds, which read the row again (after a
/// reconnection, every long poll reads again, since a change may have gone unheard). Rows are
/// written under a lock per session, so two servers applying events to one session take turns.
actor StoredPickerSessions: PickerSessionStore {
    private let database: any SQLDatabase
    /// Long polls waiting here, by session and token.
    private var waiters: [String: [Int: CheckedContinuation<Void, Never>]] = [:]
    private var nextToken = 0
    /// How many long polls follow each session, and what was announced for those followed.
    private var watching: [String: Int] = [:]
    private var announced: [String: Int] = [:]
    private var resumes = 0
    private var listening: Task<Void, Never>?

    init(database: any SQLDatabase) {
        self.database = database
    }

    deinit { listening?.cancel() }

    private static func topic(_ id: String) -> String { "picker \(id)" }

    func create(_ configuration: PickerConfiguration, creator: String?, client: AllowedApps.App?, owner: Owner?) async throws(PickerError)
        -> (
            id: String, session: PickerSession
        )
    {
        let session = try PickerSession(configuration: configuration)
        let id = Self.newID()
        let (text, clientText) = (try Self.encode(session), try client.map { app throws(PickerError) in try Self.encode(app) })
        let now = Date().timeIntervalSince1970
        let made = try await guarded { () async throws(StorageError) in
            try await database.write { connection throws(StorageError) -> Bool in
                // Counting and inserting take turns across servers, so the quotas hold for all.
                try connection.lock("cameraroll picker sessions")
                try connection.run("DELETE FROM picker_sessions WHERE last_used < ?", [now - Self.lifetime])
                let counts = try connection.query(
                    """
                    SELECT count(*) AS everyone,
                        sum(CASE WHEN creator IS NOT NULL AND client IS NULL THEN 1 ELSE 0 END) AS strangers,
                        sum(CASE WHEN creator IS NOT NULL AND client IS NOT NULL THEN 1 ELSE 0 END) AS sites,
                        sum(CASE WHEN creator = ? THEN 1 ELSE 0 END) AS theirs
                    FROM picker_sessions
                    """, [creator ?? ""])
                let row = counts.first
                let pool = try row?.optionalInteger(client == nil ? "strangers" : "sites") ?? 0
                let everyone = try row?.integer("everyone") ?? 0
                let theirs = try row?.optionalInteger("theirs") ?? 0
                guard everyone < Self.limit, creator == nil || (pool < Self.poolLimit && theirs < Self.perNetwork) else {
                    return false
                }
                try connection.run(
                    "INSERT INTO picker_sessions (id, session, creator, client, owner_id, last_used) VALUES (?, ?, ?, ?, ?, ?)",
                    [id, text, creator, clientText, owner?.id, now])
                return true
            }
        }
        guard made else { throw Self.tooMany }
        return (id, session)
    }

    func wait(_ id: String, seconds: Double) async throws(PickerError) -> PickerSession? {
        listen()
        watching[id, default: 0] += 1
        defer {
            watching[id, default: 1] -= 1
            if watching[id] == 0 {
                watching[id] = nil
                announced[id] = nil
            }
        }
        let deadline = Date().addingTimeInterval(seconds)
        var seen = heard(id)
        var last = try await read(id)
        // The database went away while this poll waited (a restart): the poll waits on and reads
        // again at the next news, or in a second, rather than fail its caller before its time.
        var outage: PickerError?
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if let outage {
                guard remaining > 0 else { throw outage }
            } else {
                guard let session = last, !session.state.isFinal, remaining > 0 else { return last }
            }
            // Something heard while the row was read is read again rather than waited for.
            if heard(id) == seen { await sleep(id, seconds: outage == nil ? remaining : min(1, remaining)) }
            seen = heard(id)
            do {
                last = try await read(id)
                outage = nil
            } catch  where error.code == .storageUnavailable {
                outage = error
            }
        }
    }

    /// Waits for news of the session, or `seconds`.
    private func sleep(_ id: String, seconds: Double) async {
        nextToken += 1
        let token = nextToken
        await withCheckedContinuation { continuation in
            waiters[id, default: [:]][token] = continuation
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(seconds))
                await self?.expire(id, token)
            }
        }
    }

    /// How much was heard that may concern the session: its announcements and reconnections.
    private func heard(_ id: String) -> Int { (announced[id] ?? 0) + resumes }

    private func expire(_ id: String, _ token: Int) {
        waiters[id]?.removeValue(forKey: token)?.resume()
    }

    /// Follows the announcements from the first long poll on.
    private func listen() {
        guard listening == nil, let announcements = database.announcements() else { return }
        listening = Task { [weak self] in
            for await announcement in announcements { await self?.wake(announcement) }
        }
    }

    private func wake(_ announcement: Announcement) {
        let woken: [String]
        switch announcement {
        case .resumed:
            resumes += 1
            woken = Array(waiters.keys)
        case .topic(let topic):
            guard topic.hasPrefix("picker "), case let id = String(topic.dropFirst("picker ".count)), watching[id] != nil else { return }
            announced[id, default: 0] += 1
            woken = [id]
        }
        for id in woken {
            for waiter in (waiters.removeValue(forKey: id) ?? [:]).values { waiter.resume() }
        }
    }

    /// The session as stored, its last use now.
    private func read(_ id: String) async throws(PickerError) -> PickerSession? {
        let now = Date().timeIntervalSince1970
        let text = try await guarded { () async throws(StorageError) in
            try await database.write { connection throws(StorageError) -> String? in
                guard
                    try connection.run(
                        "UPDATE picker_sessions SET last_used = ? WHERE id = ? AND last_used >= ?", [now, id, now - Self.lifetime]) == 1
                else { return nil }
                return try connection.query("SELECT session FROM picker_sessions WHERE id = ?", [id]).first?.text("session")
            }
        }
        return try text.map { text throws(PickerError) in try Self.decode(PickerSession.self, text) }
    }

    func handle(_ id: String, _ event: PickerSession.Event, by owner: Owner?) async throws(PickerError) -> (
        PickerSession, [PickerSession.Action]
    ) {
        let now = Date().timeIntervalSince1970
        let outcome = try await guarded { () async throws(StorageError) in
            try await database.write { connection throws(StorageError) -> Result<(PickerSession, [PickerSession.Action]), PickerError> in
                try connection.lock("cameraroll picker session \(id)")
                let rows = try connection.query(
                    "SELECT session, owner_id FROM picker_sessions WHERE id = ? AND last_used >= ?", [id, now - Self.lifetime])
                guard let row = rows.first else { return .failure(Self.notFound) }
                let text = try row.text("session")
                if let owner {
                    switch try row.optionalInteger("owner_id") {
                    case nil: try connection.run("UPDATE picker_sessions SET owner_id = ? WHERE id = ?", [owner.id, id])
                    case owner.id?: break
                    default: return .failure(Self.notFound)
                    }
                }
                let applied = Result { () throws(PickerError) -> (PickerSession, [PickerSession.Action]) in
                    var session = try Self.decode(PickerSession.self, text)
                    let actions = try session.handle(event)
                    return (session, actions)
                }
                guard case .success(let (session, _)) = applied, let changed = try? Self.encode(session) else { return applied }
                try connection.run("UPDATE picker_sessions SET session = ?, last_used = ? WHERE id = ?", [changed, now, id])
                try connection.announce(Self.topic(id))
                return applied
            }
        }
        let applied = try outcome.get()
        // Announcements reach the other servers; a database of one server makes none.
        wake(.topic(Self.topic(id)))
        return applied
    }

    func configuration(of id: String) async throws(PickerError) -> PickerConfiguration? {
        let text = try await guarded { () async throws(StorageError) in
            try await database.read { [cutoff = Date().timeIntervalSince1970 - Self.lifetime] connection throws(StorageError) -> String? in
                try connection.query("SELECT session FROM picker_sessions WHERE id = ? AND last_used >= ?", [id, cutoff]).first?.text(
                    "session")
            }
        }
        return try text.map { text throws(PickerError) in try Self.decode(PickerSession.self, text).configuration }
    }

    func client(of id: String) async throws(PickerError) -> AllowedApps.App? {
        let text = try await guarded { () async throws(StorageError) in
            try await database.read { connection throws(StorageError) -> String? in
                try connection.query("SELECT client FROM picker_sessions WHERE id = ?", [id]).first?.optionalText("client")
            }
        }
        return try text.map { text throws(PickerError) in try Self.decode(AllowedApps.App.self, text) }
    }

    private static func encode(_ value: some Encodable) throws(PickerError) -> String {
        guard let data = try? JSONEncoder().encode(value) else {
            throw PickerError(.storageFailed, "A picker session could not be stored.")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(PickerError) -> T {
        guard let value = try? JSONDecoder().decode(type, from: Data(text.utf8)) else {
            throw PickerError(.storageFailed, "A stored picker session is damaged.")
        }
        return value
    }

    /// The database's failure as a picker error: `storage_unavailable` for an outage.
    private func guarded<T>(_ body: () async throws(StorageError) -> T) async throws(PickerError) -> T {
        do {
            return try await body()
        } catch {
            let failure = error.asLayerFailure
            throw PickerError(failure.outage ? .storageUnavailable : .storageFailed, failure.message, cause: error)
        }
    }
}
