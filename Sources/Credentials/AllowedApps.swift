public import Foundation
import Storage
internal import Synchronization

/// The web sites the owner lets open the picker (`apps.json` in the data folder): each an origin
/// with a name the owner gave it and how long the links to what it is given stay good. Removing
/// a site ends its links at once. A site allowed once ("Allow once") is kept in memory only, for
/// as long as the one pick and its links need.
///
/// The command line changes the file while a server runs; the server sees the change at its
/// next look, by the file's stamp, and writers take turns under a lock file.
public final class AllowedApps: Sendable {
    public struct App: Codable, Sendable, Equatable {
        /// Named in the links the site gets (`app=`), so they die with the app.
        public let id: String
        public let origin: WebOrigin
        public var name: String
        /// Seconds a link to a picked item stays good.
        public var linkLifetime: Int
        public let added: Date
        /// When an app allowed once is forgotten; nil for the apps the owner keeps.
        public var expires: Date?
    }

    public static let defaultLinkLifetime = 3600
    public static let linkLifetimes = 1...(30 * 24 * 3600)

    public let file: URL
    private let lock: URL
    private struct Cache {
        var stamp: String?
        var apps: [App] = []
        var once: [String: App] = [:]
    }
    private let cache = Mutex(Cache())

    public init(dataFolder: URL) {
        file = dataFolder.appendingPathComponent("apps.json")
        lock = dataFolder.appendingPathComponent("apps.lock")
    }

    /// The apps the owner keeps, in the order they were added.
    public func list() -> [App] {
        let stamp = Self.stamp(file)
        return cache.withLock { cache in
            if cache.stamp != stamp {
                cache.apps = stamp == nil ? [] : Self.read(file)
                cache.stamp = stamp
            }
            return cache.apps
        }
    }

    /// The kept app for an origin.
    public func app(origin: WebOrigin) -> App? { list().first { $0.origin == origin } }

    /// A kept app, or one allowed once that is not yet forgotten.
    public func app(id: String, now: Date = Date()) -> App? {
        if let kept = list().first(where: { $0.id == id }) { return kept }
        return cache.withLock { cache in
            cache.once = cache.once.filter { ($0.value.expires ?? now) > now }
            return cache.once[id]
        }
    }

    /// Whether the origin may use the picker now: kept, or allowed once and not yet forgotten.
    public func allows(_ origin: WebOrigin, now: Date = Date()) -> Bool {
        if app(origin: origin) != nil { return true }
        return cache.withLock { cache in cache.once.values.contains { $0.origin == origin && ($0.expires ?? now) > now } }
    }

    /// Keeps an app, or changes the name and link lifetime of the one kept for the origin (its
    /// links stay good).
    @discardableResult
    public func add(_ origin: WebOrigin, name: String, linkLifetime: Int = defaultLinkLifetime, now: Date = Date()) throws(CredentialsError)
        -> App
    {
        let name = try Self.checked(name: name)
        guard Self.linkLifetimes.contains(linkLifetime) else {
            throw CredentialsError("invalid_link_lifetime", "A link lifetime is between 1 second and 30 days.")
        }
        return try change { apps in
            if let index = apps.firstIndex(where: { $0.origin == origin }) {
                apps[index].name = name
                apps[index].linkLifetime = linkLifetime
                return apps[index]
            }
            // Whole seconds, as the file keeps them.
            let added = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            let app = App(id: Crypto.randomBytes(12).hex, origin: origin, name: name, linkLifetime: linkLifetime, added: added)
            apps.append(app)
            return app
        }
    }

    /// Forgets the app with this id or origin, and so every link it was given; nil when there
    /// was none.
    @discardableResult
    public func remove(_ key: String) throws(CredentialsError) -> App? {
        let origin = try? WebOrigin(key)
        return try change { apps in
            guard let index = apps.firstIndex(where: { $0.id == key || $0.origin == origin }) else { return nil }
            return apps.remove(at: index)
        }
    }

    /// Lets an origin that is not kept use the picker for one pick: the app lives `duration`
    /// seconds (the pick and its links), in this process only.
    public func allowOnce(_ origin: WebOrigin, duration: TimeInterval, now: Date = Date()) -> App {
        let app = App(
            id: Crypto.randomBytes(12).hex, origin: origin, name: origin.authority, linkLifetime: Self.defaultLinkLifetime, added: now,
            expires: now.addingTimeInterval(duration))
        cache.withLock { cache in
            cache.once = cache.once.filter { ($0.value.expires ?? now) > now }
            cache.once[app.id] = app
        }
        return app
    }

    private static func checked(name: String) throws(CredentialsError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CredentialsError("invalid_app_name", "An app's name is 1 to 100 characters, without control characters.")
        }
        return trimmed
    }

    /// Reads the file afresh under the lock, changes it, and replaces it whole.
    private func change<T>(_ body: (inout [App]) -> T) throws(CredentialsError) -> T {
        try FileLock.holding(lock) { () throws(CredentialsError) -> T in
            var apps = Self.read(file)
            let result = body(&apps)
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                try PrivateFile.replace(Array(try encoder.encode(apps)), at: file.path)
            } catch {
                throw CredentialsError("write_failed", "The list of apps could not be saved.")
            }
            cache.withLock { $0.stamp = nil }
            return result
        }
    }

    /// The kept apps; none when there is no file. An unreadable file allows nobody, which is
    /// the safe way to be wrong, and the next change writes a good one.
    private static func read(_ file: URL) -> [App] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([App].self, from: data)) ?? []
    }

    /// The file's inode, change time and size: it is replaced whole on every change.
    private static func stamp(_ file: URL) -> String? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return "\(info.st_ino)-\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)-\(info.st_size)"
    }
}
