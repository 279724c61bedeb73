public import Foundation
import IPAddress
internal import Synchronization

/// Slows password guessing without letting anyone's guesses lock the owner out. A failure counts
/// against its address and against its network (an IPv6 /64, all of whose addresses its holder
/// can use; see `IPAddress.network`): `limit` failures from one address within `window`, or
/// `networkLimit` from one network, lock that address or network out until `window` has passed
/// since the last of them. Failures from everyone together lock nobody out, since guesses from
/// ever new networks would lock the owner out with them; instead every sign-in waits a little
/// longer for each failure within `window` past `freeFailures`, at most `maxDelay`.
///
/// Every counted failure is a try that is checked (tries from a locked-out client are refused
/// before they are counted), so how many are kept is bounded by how fast passwords are checked.
///
/// Servers sharing a library count together (`shared`): each keeps its own failures in memory
/// and in the database, and adds the others' from there to its own before it decides.
public final class LockOut: Sendable {
    public let limit: Int
    public let networkLimit: Int
    public let window: TimeInterval
    public let freeFailures: Int
    public let delayStep: TimeInterval
    public let maxDelay: TimeInterval
    private let failures = Mutex(Failures())
    let shared: SharedCredentials?

    public init(
        limit: Int = 5, networkLimit: Int = 10, window: TimeInterval = 15 * 60, freeFailures: Int = 10, delayStep: TimeInterval = 0.1,
        maxDelay: TimeInterval = 3, shared: SharedCredentials? = nil
    ) {
        self.shared = shared
        self.limit = limit
        self.networkLimit = networkLimit
        self.window = window
        self.freeFailures = freeFailures
        self.delayStep = delayStep
        self.maxDelay = maxDelay
    }

    /// What counting a try found.
    public struct Attempt: Sendable, Equatable {
        /// Failures already counted against the try's network: how suspect its client is.
        public var suspicion: Int
        /// How long the try waits before it is checked: everyone's slowdown.
        public var delay: TimeInterval
    }

    /// Failures the other servers sharing the library counted.
    struct Elsewhere: Sendable {
        var address: [Date] = []
        var network: [Date] = []
        var total = 0
    }

    /// Seconds the address must still wait (it, or its network, is locked out), or nil when it
    /// may try; with `shared`, counting the other servers' failures too.
    public func check(_ address: String, now: Date = Date()) async throws(CredentialsError) -> TimeInterval? {
        let client = Client(address)
        return wait(for: client, elsewhere: try await elsewhere(client, now), now: now)
    }

    /// `check` by this server's failures alone.
    public func wait(for address: String, now: Date = Date()) -> TimeInterval? {
        wait(for: Client(address), elsewhere: Elsewhere(), now: now)
    }

    private func wait(for client: Client, elsewhere: Elsewhere, now: Date) -> TimeInterval? {
        failures.withLock { failures in
            forget(&failures, now)
            let waits = [
                ((failures.byAddress[client.address] ?? []) + elsewhere.address, limit),
                ((failures.byNetwork[client.network] ?? []) + elsewhere.network, networkLimit),
            ].compactMap { dates, limit in lockedFor(dates, limit: limit, now: now) }
            return waits.max()
        }
    }

    private func elsewhere(_ client: Client, _ now: Date) async throws(CredentialsError) -> Elsewhere {
        try await shared?.failuresElsewhere(client, since: now.addingTimeInterval(-2 * window)) ?? Elsewhere()
    }

    /// How long failures at `dates` still lock out: `limit` of them within `window`, until
    /// `window` after the last.
    private func lockedFor(_ dates: [Date], limit: Int, now: Date) -> TimeInterval? {
        guard let last = dates.max(), dates.count(where: { $0 > last.addingTimeInterval(-window) }) >= limit else { return nil }
        let wait = last.addingTimeInterval(window).timeIntervalSince(now)
        return wait > 0 ? wait : nil
    }

    /// A lock may rest on failures up to `window` before its last, which is up to `window` ago.
    private func forget(_ failures: inout Failures, _ now: Date) {
        failures.forget(before: now.addingTimeInterval(-2 * window))
    }

    /// Counts a try as failed before its (slow) check, so that tries sent at once all count;
    /// `succeeded` takes it back. With `shared`, the other servers' failures count too, and this
    /// one is counted for them.
    public func count(_ address: String, now: Date = Date()) async throws(CredentialsError) -> Attempt {
        let client = Client(address)
        let elsewhere = try await elsewhere(client, now)
        try await shared?.countFailure(client, at: now, forgetBefore: now.addingTimeInterval(-2 * window))
        return attempt(client, elsewhere: elsewhere, now: now)
    }

    /// `count` on this server alone.
    @discardableResult
    public func attempt(from address: String, now: Date = Date()) -> Attempt {
        attempt(Client(address), elsewhere: Elsewhere(), now: now)
    }

    private func attempt(_ client: Client, elsewhere: Elsewhere, now: Date) -> Attempt {
        let since = now.addingTimeInterval(-window)
        return failures.withLock { failures in
            forget(&failures, now)
            let suspicion =
                (failures.byNetwork[client.network]?.count(where: { $0 > since }) ?? 0) + elsewhere.network.count(where: { $0 > since })
            failures.add(client, at: now)
            let everyone = failures.count(since: since) + elsewhere.total
            let delay = min(maxDelay, Double(max(0, everyone - freeFailures)) * delayStep)
            return Attempt(suspicion: suspicion, delay: delay)
        }
    }

    /// The right password: the address's failures (its typos, and this try) no longer count,
    /// on any server. Other addresses of its network keep theirs.
    public func succeeded(_ address: String) async throws(CredentialsError) {
        let client = Client(address)
        failures.withLock { $0.remove(client) }
        try await shared?.forgetFailures(of: client)
    }
}

/// The failures kept, oldest first, and by address and network.
private struct Failures {
    private var log: [(date: Date, client: LockOut.Client)] = []
    /// Where the log's live part starts: forgetting moves it on, and the array is compacted now and then.
    private var start = 0
    private(set) var byAddress: [String: [Date]] = [:]
    private(set) var byNetwork: [String: [Date]] = [:]

    /// How many are later than `date`: the log is in time order, so a binary search finds the first.
    func count(since date: Date) -> Int {
        var low = start
        var high = log.count
        while low < high {
            let middle = (low + high) / 2
            if log[middle].date > date { high = middle } else { low = middle + 1 }
        }
        return log.count - low
    }

    mutating func add(_ client: LockOut.Client, at date: Date) {
        log.append((date, client))
        byAddress[client.address, default: []].append(date)
        byNetwork[client.network, default: []].append(date)
    }

    /// Drops what is older than `cutoff`. Each key's dates are in the log's order, so the oldest
    /// of the log is the first of its address's and its network's.
    mutating func forget(before cutoff: Date) {
        while start < log.count, log[start].date < cutoff {
            let client = log[start].client
            Self.dropFirst(client.address, from: &byAddress)
            Self.dropFirst(client.network, from: &byNetwork)
            start += 1
        }
        if start > 1024 && start * 2 > log.count {
            log.removeFirst(start)
            start = 0
        }
    }

    mutating func remove(_ client: LockOut.Client) {
        log = log[start...].filter { $0.client.address != client.address }
        start = 0
        byAddress[client.address] = nil
        let network = log.filter { $0.client.network == client.network }.map(\.date)
        byNetwork[client.network] = network.isEmpty ? nil : network
    }

    private static func dropFirst(_ key: String, from table: inout [String: [Date]]) {
        table[key]?.removeFirst()
        if table[key]?.isEmpty == true { table[key] = nil }
    }
}

extension LockOut {
    /// A client as the lock-out counts it: its address, and the network whose every address the
    /// same client may use. What is not an address (a test's name) is counted as what it says.
    struct Client: Sendable {
        let address: String
        let network: String

        init(_ text: String) {
            let parsed = IPAddress(text)
            address = parsed?.description ?? text
            network = parsed.map { $0.isIPv4 ? $0.description : "\($0.network)/64" } ?? text
        }
    }
}
