import Foundation
import Storage
import Synchronization

/// The rendition jobs of servers sharing a library, in its database (`rendition_jobs`), so that
/// each video is made once, by whichever server's worker claims it first, and every server
/// serves the result. A job is queued by whoever asks for it; a worker claims it (`FOR UPDATE
/// SKIP LOCKED`, so workers never wait for each other), holds a lease it renews while ffmpeg
/// runs, stores the output in the blob store (content-addressed, like an original) and marks the
/// job done. Each claim raises the job's attempt, and a renewal, completion or failure names its
/// attempt: a worker that lost its lease (it stalled, or its server was killed and another
/// claimed the job after the lease ran out) cannot complete what is now another's.
///
/// A failure is kept in the row until someone retries (`enqueue(retry:)`), a restart included:
/// with several servers, one restarting is no sign that what failed has changed.
///
/// News goes by announcements (`rendition <hash>` when a job changes, `renditions` when one is
/// queued), with polling as the fallback: workers look every `pollInterval`, waiters every second.
final class RenditionQueue: Sendable {
    let database: any SQLDatabase
    /// Names this server's worker in the rows it claims.
    let worker = UUID().uuidString.lowercased()
    let lease: TimeInterval
    let news = Doorbell()

    static let pollInterval: Duration = .seconds(2)

    init(database: any SQLDatabase, lease: TimeInterval) {
        self.database = database
        self.lease = lease
    }

    /// A claimed job: what to make, and the attempt its worker holds.
    struct Claim: Sendable, Equatable {
        var hash: String
        var derivative: String
        var attempt: Int
    }

    enum Standing: Sendable, Equatable {
        case none
        case queued
        case running(progress: Double)
        case done(output: String)
        case failed(LibraryError)
    }

    func standing(_ hash: String, _ derivative: String) async throws(StorageError) -> Standing {
        try await database.read { connection throws(StorageError) -> Standing in
            guard
                let row = try connection.query(
                    "SELECT state, progress, output_hash, error_code, error_message FROM rendition_jobs WHERE blob_hash = ? AND derivative = ?",
                    [hash, derivative]
                ).first
            else { return .none }
            switch try row.text("state") {
            case "queued": return .queued
            case "running": return .running(progress: try row.real("progress"))
            case "done": return .done(output: try row.text("output_hash"))
            default:
                return .failed(LibraryError(LibraryError.Code(stored: try row.text("error_code")), try row.text("error_message")))
            }
        }
    }

    /// Queues the job unless it is queued, running or done; a failed one only when `retry`.
    func enqueue(_ hash: String, _ derivative: String, retry: Bool = false) async throws(StorageError) {
        let now = Date().timeIntervalSince1970
        try await database.write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO rendition_jobs (blob_hash, derivative, state, queued_at) VALUES (?, ?, 'queued', ?)
                ON CONFLICT (blob_hash, derivative) DO UPDATE SET state = 'queued', queued_at = excluded.queued_at,
                    error_code = NULL, error_message = NULL, progress = 0
                WHERE rendition_jobs.state = 'failed' AND ? = 1
                """, [hash, derivative, now, retry ? 1 : 0])
            try connection.announce("renditions")
        }
    }

    /// The oldest job queued, or running on a lease that ran out, now this worker's.
    func claim() async throws(StorageError) -> Claim? {
        let now = Date().timeIntervalSince1970
        return try await database.write { [worker, lease] connection throws(StorageError) -> Claim? in
            guard
                let row = try connection.query(
                    """
                    SELECT blob_hash, derivative, attempt FROM rendition_jobs
                    WHERE state = 'queued' OR (state = 'running' AND lease_until < ?)
                    ORDER BY queued_at LIMIT 1 FOR UPDATE SKIP LOCKED
                    """, [now]
                ).first
            else { return nil }
            let claim = Claim(
                hash: try row.text("blob_hash"), derivative: try row.text("derivative"), attempt: try row.integer("attempt") + 1)
            try connection.run(
                """
                UPDATE rendition_jobs SET state = 'running', attempt = ?, worker = ?, lease_until = ?, progress = 0
                WHERE blob_hash = ? AND derivative = ?
                """, [claim.attempt, worker, now + lease, claim.hash, claim.derivative])
            try connection.announce("rendition \(claim.hash)")
            return claim
        }
    }

    /// Keeps the lease and says how far the job has got; false when the claim is no longer this
    /// worker's.
    func renew(_ claim: Claim, progress: Double) async throws(StorageError) -> Bool {
        try await fenced(claim, "lease_until = ?, progress = ?", [Date().timeIntervalSince1970 + lease, progress], announce: false)
    }

    /// The job is done, its output in the blob store as `output`; false when the claim was lost.
    static func complete(_ claim: Claim, output: String, _ connection: any SQLConnection) throws(StorageError) -> Bool {
        try fenced(claim, "state = 'done', output_hash = ?, progress = 1, lease_until = NULL", [output], announce: true, connection)
    }

    /// The job failed for good (until someone retries it); false when the claim was lost.
    func fail(_ claim: Claim, _ error: LibraryError) async throws(StorageError) -> Bool {
        try await fenced(
            claim, "state = 'failed', error_code = ?, error_message = ?, lease_until = NULL", [error.code.description, error.message],
            announce: true)
    }

    private func fenced(_ claim: Claim, _ assignments: String, _ values: [any SQLBindable], announce: Bool) async throws(StorageError)
        -> Bool
    {
        try await database.write { connection throws(StorageError) -> Bool in
            try Self.fenced(claim, assignments, values, announce: announce, connection)
        }
    }

    private static func fenced(
        _ claim: Claim, _ assignments: String, _ values: [any SQLBindable], announce: Bool, _ connection: any SQLConnection
    ) throws(StorageError) -> Bool {
        let changed = try connection.run(
            "UPDATE rendition_jobs SET \(assignments) WHERE blob_hash = ? AND derivative = ? AND attempt = ? AND state = 'running'",
            values + [claim.hash, claim.derivative, claim.attempt])
        if changed == 1 && announce { try connection.announce("rendition \(claim.hash)") }
        return changed == 1
    }

    /// Rings the doorbell at every announcement about renditions, and after a reconnection.
    func follow(_ announcements: AsyncStream<Announcement>) -> Task<Void, Never> {
        Task { [news] in
            for await announcement in announcements {
                switch announcement {
                case .resumed: news.ring()
                case .topic(let topic) where topic == "renditions" || topic.hasPrefix("rendition "): news.ring()
                case .topic: break
                }
            }
        }
    }
}

/// Wakes whoever waits for news: a waiter notes `rings` before it looks, and waits only if
/// nothing rang since.
final class Doorbell: Sendable {
    private struct State {
        var rings = 0
        var next = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits whose time ran out before they began waiting.
        var expired: Set<Int> = []
    }
    private let state = Mutex(State())

    var rings: Int { state.withLock { $0.rings } }

    func ring() {
        let waiters = state.withLock { state in
            state.rings += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at the first ring after `seen`, or after `timeout`.
    func wait(after seen: Int, timeout: Duration) async {
        let token = state.withLock { state in
            state.next += 1
            return state.next
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self?.resume(token) }
        }
        await withCheckedContinuation { continuation in
            let waiting = state.withLock { state in
                guard state.rings == seen, state.expired.remove(token) == nil else { return false }
                state.waiters[token] = continuation
                return true
            }
            if !waiting { continuation.resume() }
        }
        timer.cancel()
        _ = state.withLock { $0.expired.remove(token) }
    }

    private func resume(_ token: Int) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: token) else {
                state.expired.insert(token)
                return nil as CheckedContinuation<Void, Never>?
            }
            return waiter
        }
        waiter?.resume()
    }
}
