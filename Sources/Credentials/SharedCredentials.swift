import Digests
import Foundation
public import Storage
internal import Synchronization

/// What servers sharing a library must agree on to sign people in, kept in its database: the
/// people with their password hashes and the allowed apps (named records), sessions signed out before their
/// time, and each server's counted sign-in failures.
///
/// A request's gate may only look at memory, so the records and the signed-out sessions are
/// mirrored here: read again whenever any server announces a change (it announces in the same
/// transaction, so the news comes with the commit), after the announcements' connection was
/// made again (news may have been missed), and every `pollInterval` besides, should a notice
/// be lost some other way. A server's own change is in its mirror before the change returns.
public final class SharedCredentials: Sendable {
    let database: any SQLDatabase
    /// Names this server's rows among the failures, so it counts only the others' from there.
    let server = Hex.text(Crypto.randomBytes(8))
    private let mirror = Mutex(Mirror())
    private let watchers = Mutex<[Task<Void, Never>]>([])

    public static let pollInterval: Duration = .seconds(10)
    /// The topic of every announcement of a change here.
    static let topic = "credentials"
    static let recordNames = ["users", "owner-password", "allowed-apps", "allowed-once"]

    private struct Mirror {
        var records: [String: String] = [:] {
            // A request's gate asks for the password's stamp each time: made once per change.
            didSet { stamps = records.mapValues { Hex.text(Digest.sha256(Array($0.utf8))) } }
        }
        /// The SHA-256 of each record's text: the same on every server for the same text.
        private(set) var stamps: [String: String] = [:]
        /// Signed-out sessions by id, with when they would have expired.
        var ended: [String: Int64] = [:]
        /// Changes made here since start: a read that began before one is not applied.
        var changes = 0
    }

    /// Reads what is kept and, when `following` (a server), follows the changes; a command that
    /// reads or writes once and ends needs no listening connection and thread.
    public static func open(database: any SQLDatabase, following: Bool = true) async throws(CredentialsError) -> SharedCredentials {
        let store = SharedCredentials(database: database)
        // Listening first, so that no change falls between the read and the listening.
        if following { store.follow() }
        try await store.refresh()
        return store
    }

    private init(database: any SQLDatabase) {
        self.database = database
    }

    deinit {
        for watcher in watchers.withLock({ $0 }) { watcher.cancel() }
    }

    private func follow() {
        let announcements = database.announcements()
        let listening = Task { [weak self] in
            guard let announcements else { return }
            for await announcement in announcements where announcement == .resumed || announcement == .topic(Self.topic) {
                try? await self?.refresh()
            }
        }
        let polling = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.pollInterval)
                try? await self?.refresh()
            }
        }
        watchers.withLock { $0 = [listening, polling] }
    }

    /// Reads the records and the signed-out sessions again.
    public func refresh() async throws(CredentialsError) {
        while true {
            let started = mirror.withLock { $0.changes }
            let now = Int64(Date().timeIntervalSince1970)
            let (records, ended) = try await Self.guarded { () async throws(StorageError) in
                try await database.read { connection throws(StorageError) in
                    let placeholders = Self.recordNames.map { _ in "?" }.joined(separator: ", ")
                    var records: [String: String] = [:]
                    for row in try connection.query(
                        "SELECT name, value FROM shared_records WHERE name IN (\(placeholders))", Self.recordNames)
                    {
                        records[try row.text("name")] = try row.text("value")
                    }
                    var ended: [String: Int64] = [:]
                    for row in try connection.query("SELECT id, expires FROM ended_sessions WHERE expires > ?", [now]) {
                        ended[try row.text("id")] = Int64(try row.integer("expires"))
                    }
                    return (records, ended)
                }
            }
            let applied = mirror.withLock { mirror in
                guard mirror.changes == started else { return false }
                mirror.records = records
                mirror.ended = ended
                return true
            }
            if applied { return }
        }
    }

    /// The record `name` as this server last read it.
    func text(of name: String) -> String? { mirror.withLock { $0.records[name] } }

    func stamp(of name: String) -> String? { mirror.withLock { $0.stamps[name] } }

    /// Changes the record `name` under a lock every server takes for it, announced at commit.
    func change<T: Sendable>(_ name: String, _ body: @escaping @Sendable (String?) throws(CredentialsError) -> (String?, T))
        async throws(CredentialsError) -> T
    {
        let outcome = try await Self.guarded { () async throws(StorageError) in
            try await database.write { connection throws(StorageError) -> Result<(String?, T), CredentialsError> in
                try connection.lock("cameraroll shared record \(name)")
                let old = try connection.query("SELECT value FROM shared_records WHERE name = ?", [name]).first.map {
                    row throws(StorageError) in try row.text("value")
                }
                let outcome = Result { () throws(CredentialsError) in try body(old) }
                guard case .success(let (text, _)) = outcome else { return outcome }
                if let text {
                    try connection.run(
                        "INSERT INTO shared_records (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                        [name, text])
                } else {
                    try connection.run("DELETE FROM shared_records WHERE name = ?", [name])
                }
                try connection.announce(Self.topic)
                return outcome
            }
        }
        let (text, result) = try outcome.get()
        mirror.withLock { mirror in
            mirror.records[name] = text
            mirror.changes += 1
        }
        return result
    }

    /// Whether the session `id` was signed out (on any server).
    func isEnded(_ id: String) -> Bool { mirror.withLock { $0.ended[id] != nil } }

    /// Signs the session `id` out on every server; it is forgotten once it would have expired.
    func end(session id: String, expires: Int64) async throws(CredentialsError) {
        let now = Int64(Date().timeIntervalSince1970)
        try await Self.guarded { () async throws(StorageError) in
            try await database.write { connection throws(StorageError) in
                try connection.run("DELETE FROM ended_sessions WHERE expires <= ?", [now])
                try connection.run("INSERT INTO ended_sessions (id, expires) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", [id, expires])
                try connection.announce(Self.topic)
            }
        }
        mirror.withLock { mirror in
            mirror.ended[id] = expires
            mirror.changes += 1
        }
    }

    /// The failures other servers counted lately against the client's address and network, and
    /// how many they counted in all: what this server's `LockOut` adds to its own.
    func failuresElsewhere(_ client: LockOut.Client, since: Date) async throws(CredentialsError) -> LockOut.Elsewhere {
        try await Self.guarded { () async throws(StorageError) in
            try await database.read { [server] connection throws(StorageError) in
                let rows = try connection.query(
                    "SELECT address, failed_at FROM sign_in_failures WHERE server <> ? AND network = ? AND failed_at > ?",
                    [server, client.network, since.timeIntervalSince1970])
                var elsewhere = LockOut.Elsewhere()
                for row in rows {
                    let date = Date(timeIntervalSince1970: try row.real("failed_at"))
                    elsewhere.network.append(date)
                    if try row.text("address") == client.address { elsewhere.address.append(date) }
                }
                let total = try connection.scalar(
                    "SELECT count(*) AS failures FROM sign_in_failures WHERE server <> ? AND failed_at > ?",
                    [server, since.timeIntervalSince1970])
                if case .integer(let count) = total { elsewhere.total = Int(count) }
                return elsewhere
            }
        }
    }

    /// Counts a failure for the others to see, and forgets what no lock-out rests on any more.
    func countFailure(_ client: LockOut.Client, at date: Date, forgetBefore cutoff: Date) async throws(CredentialsError) {
        try await Self.guarded { () async throws(StorageError) in
            try await database.write { [server] connection throws(StorageError) in
                try connection.run("DELETE FROM sign_in_failures WHERE failed_at < ?", [cutoff.timeIntervalSince1970])
                try connection.run(
                    "INSERT INTO sign_in_failures (server, address, network, failed_at) VALUES (?, ?, ?, ?)",
                    [server, client.address, client.network, date.timeIntervalSince1970])
            }
        }
    }

    /// The right password: the address's failures no longer count anywhere.
    func forgetFailures(of client: LockOut.Client) async throws(CredentialsError) {
        try await Self.guarded { () async throws(StorageError) in
            try await database.write { connection throws(StorageError) in
                try connection.run("DELETE FROM sign_in_failures WHERE address = ?", [client.address])
            }
        }
    }

    /// The database's failure as a credentials error: `storage_unavailable` for an outage.
    @discardableResult
    private static func guarded<T>(_ body: () async throws(StorageError) -> T) async throws(CredentialsError) -> T {
        do {
            return try await body()
        } catch {
            let failure = error.asLayerFailure
            throw CredentialsError(failure.outage ? .storageUnavailable : .storageFailed, failure.message, cause: error)
        }
    }
}

/// A record of `SharedCredentials`.
struct SharedRecord: KeptRecord {
    let store: SharedCredentials
    let name: String

    var location: String { "the library's database (\(name))" }

    func text() -> String? { store.text(of: name) }

    func stamp() -> String? { store.stamp(of: name) }

    func change<T: Sendable>(_ body: @escaping @Sendable (String?) throws(CredentialsError) -> (String?, T)) async throws(CredentialsError)
        -> T
    {
        try await store.change(name, body)
    }
}
