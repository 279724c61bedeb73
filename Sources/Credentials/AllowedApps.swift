import Digests
public import Foundation
import Storage
internal import Synchronization

/// The web sites people let open their picker (`apps.json` in the data folder, or a record of
/// the database servers share, see `SharedCredentials`): each an origin, the person who allowed
/// it, the name they gave it and how long the links to what it is given stay good. Each person
/// keeps their own: two people may allow one site, each with their name and lifetime, and
/// removing it ends only that person's links. A site allowed once ("Allow once") is kept in
/// memory only, for as long as the one pick and its links need.
///
/// The command line changes the list while a server runs; the server sees the change at its
/// next look (see `KeptRecord`).
public final class AllowedApps: Sendable {
    public struct App: Codable, Sendable, Equatable {
        /// Named in the links the site gets (`app=`), so they die with the app.
        public let id: String
        public let origin: WebOrigin
        public var name: String
        /// Seconds a link to a picked item stays good.
        public var linkLifetime: Int
        public let added: Date
        /// When an app allowed once is forgotten; nil for the apps people keep.
        public var expires: Date?
        /// Who allowed it: a person's id (`UserAccounts`). A list from before there were people
        /// was the first admin's.
        public let owner: Int

        init(id: String, origin: WebOrigin, name: String, linkLifetime: Int, added: Date, expires: Date? = nil, owner: Int) {
            (self.id, self.origin, self.name, self.linkLifetime, self.added) = (id, origin, name, linkLifetime, added)
            (self.expires, self.owner) = (expires, owner)
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            origin = try container.decode(WebOrigin.self, forKey: .origin)
            name = try container.decode(String.self, forKey: .name)
            linkLifetime = try container.decode(Int.self, forKey: .linkLifetime)
            added = try container.decode(Date.self, forKey: .added)
            expires = try container.decodeIfPresent(Date.self, forKey: .expires)
            owner = try container.decodeIfPresent(Int.self, forKey: .owner) ?? 1
        }
    }

    public static let defaultLinkLifetime = 3600
    public static let linkLifetimes = 1...(30 * 24 * 3600)

    private let kept: any KeptRecord
    /// Where apps allowed once are kept: nil for this process's memory (one server), a record
    /// when servers share a library, since the pick and its links may reach any of them.
    private let once: (any KeptRecord)?
    private struct Cache {
        var stamp: String?
        var apps: [App] = []
        var onceStamp: String?
        var once: [String: App] = [:]
    }
    private let cache = Mutex(Cache())

    public init(dataFolder: URL) {
        kept = FileRecord(file: dataFolder.appendingPathComponent("apps.json"), lock: dataFolder.appendingPathComponent("apps.lock"))
        once = nil
    }

    public init(shared: SharedCredentials) {
        kept = SharedRecord(store: shared, name: "allowed-apps")
        once = SharedRecord(store: shared, name: "allowed-once")
    }

    /// Where the apps are kept, in words for a person.
    public var location: String { kept.location }

    /// The apps `owner` keeps, in the order they were added.
    public func list(owner: Int) -> [App] { all().filter { $0.owner == owner } }

    /// Everyone's kept apps.
    private func all() -> [App] {
        let stamp = kept.stamp()
        return cache.withLock { cache in
            if cache.stamp != stamp {
                cache.apps = Self.decode(kept.text())
                cache.stamp = stamp
            }
            return cache.apps
        }
    }

    /// The app `owner` keeps for an origin.
    public func app(origin: WebOrigin, owner: Int) -> App? { all().first { $0.origin == origin && $0.owner == owner } }

    /// Someone's kept app for an origin, the first allowed: what a site's own page opens a picker
    /// with before anyone has taken it (`forPicker`).
    public func anyApp(origin: WebOrigin) -> App? { all().first { $0.origin == origin } }

    /// The app a pick by `owner` gives links under, for a session opened for `app`: the app
    /// itself when it is theirs (kept, or allowed once from their chooser), else their own for
    /// that site; nil when they do not allow the site, whose picker they then may not use.
    public func forPicker(_ app: App, owner: Int) -> App? {
        app.owner == owner ? app : self.app(origin: app.origin, owner: owner)
    }

    /// A kept app, or one allowed once that is not yet forgotten.
    public func app(id: String, now: Date = Date()) -> App? {
        if let kept = all().first(where: { $0.id == id }) { return kept }
        return allowedOnce(now)[id]
    }

    /// The apps allowed once that are not yet forgotten, by id.
    private func allowedOnce(_ now: Date) -> [String: App] {
        let stamp = once?.stamp()
        return cache.withLock { cache in
            if let once, cache.onceStamp != stamp {
                cache.once = Dictionary(Self.decode(once.text()).map { ($0.id, $0) }) { first, _ in first }
                cache.onceStamp = stamp
            }
            return cache.once.filter { ($0.value.expires ?? now) > now }
        }
    }

    /// Whether the origin may use the picker now: kept by someone, or allowed once and not yet
    /// forgotten.
    public func allows(_ origin: WebOrigin, now: Date = Date()) -> Bool {
        anyApp(origin: origin) != nil || allowedOnce(now).values.contains { $0.origin == origin }
    }

    /// Keeps an app for `owner`, or changes the name and link lifetime of the one they keep for
    /// the origin (its links stay good).
    @discardableResult
    public func add(_ origin: WebOrigin, name: String, linkLifetime: Int = defaultLinkLifetime, owner: Int, now: Date = Date())
        async throws(CredentialsError) -> App
    {
        let name = try Self.checked(name: name)
        guard Self.linkLifetimes.contains(linkLifetime) else {
            throw CredentialsError(.invalidLinkLifetime, "A link lifetime is between 1 second and 30 days.")
        }
        return try await change(kept) { apps in
            if let index = apps.firstIndex(where: { $0.origin == origin && $0.owner == owner }) {
                apps[index].name = name
                apps[index].linkLifetime = linkLifetime
                return apps[index]
            }
            // Whole seconds, as the file keeps them.
            let added = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            let app = App(
                id: Hex.text(Crypto.randomBytes(12)), origin: origin, name: name, linkLifetime: linkLifetime, added: added, owner: owner)
            apps.append(app)
            return app
        }
    }

    /// Forgets `owner`'s app with this id or origin, and so every link it was given; nil when
    /// they keep none (another's is not there).
    @discardableResult
    public func remove(_ key: String, owner: Int) async throws(CredentialsError) -> App? {
        let origin = try? WebOrigin(key)
        return try await change(kept) { apps in
            guard let index = apps.firstIndex(where: { ($0.id == key || $0.origin == origin) && $0.owner == owner }) else { return nil }
            return apps.remove(at: index)
        }
    }

    /// Forgets every app a person kept, as they leave; how many there were.
    @discardableResult
    public func removeAll(owner: Int) async throws(CredentialsError) -> Int {
        try await change(kept) { apps in
            let before = apps.count
            apps.removeAll { $0.owner == owner }
            return before - apps.count
        }
    }

    /// Lets an origin that `owner` does not keep use their picker for one pick: the app lives
    /// `duration` seconds (the pick and its links), in this process only, or, when servers share
    /// a library, in its database. Never among the kept apps.
    public func allowOnce(_ origin: WebOrigin, duration: TimeInterval, owner: Int, now: Date = Date())
        async throws(CredentialsError) -> App
    {
        // Whole seconds, as a record keeps them.
        let added = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let app = App(
            id: Hex.text(Crypto.randomBytes(12)), origin: origin, name: origin.authority, linkLifetime: Self.defaultLinkLifetime,
            added: added,
            expires: added.addingTimeInterval(duration.rounded(.up)), owner: owner)
        guard let once else {
            cache.withLock { cache in
                cache.once = cache.once.filter { ($0.value.expires ?? now) > now }
                cache.once[app.id] = app
            }
            return app
        }
        return try await change(once) { apps in
            apps = apps.filter { ($0.expires ?? now) > now } + [app]
            return app
        }
    }

    private static func checked(name: String) throws(CredentialsError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CredentialsError(.invalidAppName, "An app's name is 1 to 100 characters, without control characters.")
        }
        return trimmed
    }

    /// Reads the record afresh, changes it and replaces it whole, taking turns with every writer.
    private func change<T: Sendable>(_ record: any KeptRecord, _ body: @escaping @Sendable (inout [App]) -> T)
        async throws(CredentialsError)
        -> T
    {
        let result = try await record.change { text throws(CredentialsError) -> (String?, T) in
            var apps = Self.decode(text)
            let result = body(&apps)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            guard let data = try? encoder.encode(apps) else {
                throw CredentialsError(.writeFailed, "The list of apps could not be saved.")
            }
            return (String(decoding: data, as: UTF8.self), result)
        }
        cache.withLock { cache in
            cache.stamp = nil
            cache.onceStamp = nil
        }
        return result
    }

    /// The apps a record holds; none when there is none. An unreadable record allows nobody,
    /// which is the safe way to be wrong, and the next change writes a good one.
    private static func decode(_ text: String?) -> [App] {
        guard let text else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([App].self, from: Data(text.utf8))) ?? []
    }
}
