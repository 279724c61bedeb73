import Digests
public import Foundation
internal import Synchronization

/// The people who sign in: each with a name, a password, and whether they manage the others.
/// Kept as one small record, the data folder's `users.json` (readable by the owner only) or,
/// when servers share a library, a record of its database (`SharedCredentials`), so that a
/// change made on one server or by the command line is seen by every server at its next look.
///
/// A library made before there were people has one owner password (`owner.json`, or the record
/// `owner-password`): it reads as the first admin, named `owner`, until the first change writes
/// the list, so an existing library upgrades in place and its password goes on working.
public struct UserAccounts: Sendable {
    public struct User: Codable, Sendable, Equatable {
        /// Never reused: what a person's items and sessions name them by.
        public let id: Int
        public var name: String
        public var admin: Bool
        /// nil until one is set: nobody signs in as that person.
        public var password: PasswordHash?
        /// The bytes their library may hold; nil for no limit.
        public var quota: Int64?
        /// Other ways to sign in than the password; nil in a list written before passkeys.
        public var passkeys: [Passkey]?

        /// The person as lists and pages show them: never their password's hash.
        public struct Summary: Encodable, Sendable {
            public let id: Int
            public let name: String
            public let admin: Bool
            public let passwordSet: Bool
            public let quota: Int64?
        }

        public var summary: Summary { Summary(id: id, name: name, admin: admin, passwordSet: password != nil, quota: quota) }
    }

    /// The name the owner of an earlier version's library is given.
    public static let firstAdminName = "owner"

    let record: any KeptRecord
    /// The owner password of an earlier version, read while `record` does not exist.
    let earlier: any KeptRecord
    private let parsed = ParsedUsers()

    public init(dataFolder: URL) {
        record = FileRecord(file: dataFolder.appendingPathComponent("users.json"), lock: dataFolder.appendingPathComponent("users.lock"))
        earlier = FileRecord(file: dataFolder.appendingPathComponent("owner.json"), lock: dataFolder.appendingPathComponent("owner.lock"))
    }

    public init(shared: SharedCredentials) {
        record = SharedRecord(store: shared, name: "users")
        earlier = SharedRecord(store: shared, name: "owner-password")
    }

    /// Where the people are kept, in words for a person.
    public var location: String { record.location }

    /// Everyone, in the order they were added; quick enough for a request's gate.
    public func all() throws(CredentialsError) -> [User] { try current().users }

    /// The list as it is now, parsed with its people's password stamps once for each version of
    /// the record: a request's gate asks for a stamp, and may not hash or read a file each time.
    /// The earlier owner password is looked at only while there is no list.
    private func current() throws(CredentialsError) -> ParsedUsers.Version {
        let key = record.stamp().map { "users \($0)" } ?? "earlier \(earlier.stamp() ?? "-")"
        if let cached = parsed.version(for: key) { return cached }
        let text = record.text()
        let users = try Self.stored(text, earlier: text == nil ? earlier.text() : nil, location: location).users
        let version = ParsedUsers.Version(users: users)
        parsed.keep(version, for: key)
        return version
    }

    /// The person of that name, whatever its case.
    public func user(named name: String) throws(CredentialsError) -> User? {
        let wanted = UserName.key(name)
        return try all().first { UserName.key($0.name) == wanted }
    }

    /// The person of that id; nil too when the record cannot be read, as a gate must answer.
    public func user(id: Int) -> User? { (try? all())?.first { $0.id == id } }

    /// Who signs in with a password alone, and who this computer is in the embedded mode: the
    /// first admin.
    public func firstAdmin() throws(CredentialsError) -> User? { try all().first { $0.admin } }

    /// Names the person's current password: a session carries it, so a new password, or the
    /// person's removal, ends their sessions at once. nil without a password.
    public func stamp(of id: Int) -> String? { (try? current())?.stamps[id] }

    /// Gives `name` a new password. A library without anyone yet gets its first admin so.
    public func setPassword(_ password: String, of name: String) async throws(CredentialsError) {
        try await change { users, _ throws(CredentialsError) in
            let hash = try PasswordHash(password: password)
            if users.isEmpty && UserName.key(name) == UserName.key(Self.firstAdminName) {
                users = [User(id: 1, name: Self.firstAdminName, admin: true, password: hash)]
                return
            }
            guard let index = users.firstIndex(where: { UserName.key($0.name) == UserName.key(name) }) else {
                throw CredentialsError(.unknownUser, "Nobody here is called \(name).")
            }
            users[index].password = hash
        }
    }

    /// Gives the first admin a new password (`cameraroll passwd`, and a server's first start),
    /// making them when nobody is here yet.
    public func setFirstAdminPassword(_ password: String) async throws(CredentialsError) {
        try await change { users, next throws(CredentialsError) in
            let hash = try PasswordHash(password: password)
            if let index = users.firstIndex(where: \.admin) {
                users[index].password = hash
            } else {
                users.insert(User(id: next, name: Self.firstAdminName, admin: true, password: hash), at: 0)
            }
        }
    }

    /// Adds a person with a password; the first one added to a library without anyone is its
    /// first admin, whatever `admin` says. Ids are never given twice: a person removed keeps
    /// theirs (`Stored.next`).
    @discardableResult
    public func add(_ name: String, admin: Bool, password: String) async throws(CredentialsError) -> User {
        let name = try UserName.validated(name)
        return try await change { users, next throws(CredentialsError) -> User in
            let hash = try PasswordHash(password: password)
            guard !users.contains(where: { UserName.key($0.name) == UserName.key(name) }) else {
                throw CredentialsError(.nameTaken, "Someone here is called \(name) already.")
            }
            let user = User(id: next, name: name, admin: admin || users.isEmpty, password: hash)
            users.append(user)
            return user
        }
    }

    /// Sets how many bytes a person's library may hold (nil: no limit). A library above its new
    /// quota keeps everything; it takes nothing more until it is below.
    @discardableResult
    public func setQuota(_ bytes: Int64?, of id: Int) async throws(CredentialsError) -> User {
        if let bytes, !(1...StorageSize.largest).contains(bytes) {
            throw CredentialsError(.invalidQuota, "A quota is 1 byte to 1000 TB, or none.")
        }
        return try await change { users, _ throws(CredentialsError) -> User in
            guard let index = users.firstIndex(where: { $0.id == id }) else {
                throw CredentialsError(.unknownUser, "That person is not here any more.")
            }
            users[index].quota = bytes
            return users[index]
        }
    }

    /// Who leaves and which admin receives their library, by name: refused unless both are here,
    /// are two people, the receiver is an admin, and an admin stays.
    public func removal(of name: String, to receiverName: String) throws(CredentialsError) -> (departing: User, receiver: User) {
        guard let departing = try user(named: name) else { throw CredentialsError(.unknownUser, "Nobody here is called \(name).") }
        guard let receiver = try user(named: receiverName) else {
            throw CredentialsError(.unknownUser, "Nobody here is called \(receiverName).")
        }
        guard receiver.admin, receiver.id != departing.id else {
            throw CredentialsError(.notAllowed, "\(name)'s library goes to another person who is an admin; \(receiverName) is not.")
        }
        return (departing, receiver)
    }

    /// Removes a person: their sessions end at their next request (they have no stamp). Their
    /// library is handed over first (`Catalog.handOver`); their id is never given again.
    public func remove(id: Int) async throws(CredentialsError) {
        try await change { users, _ throws(CredentialsError) in
            guard let index = users.firstIndex(where: { $0.id == id }) else {
                throw CredentialsError(.unknownUser, "That person is not here any more.")
            }
            guard users.contains(where: { $0.admin && $0.id != id }) else {
                throw CredentialsError(.notAllowed, "The last admin cannot be removed: make someone else an admin first.")
            }
            users.remove(at: index)
        }
    }

    /// Changes the list under the record's lock; the earlier owner password is adopted into it
    /// on the first change and is not read again.
    func change<T: Sendable>(_ body: @escaping @Sendable (inout [User], _ nextID: Int) throws(CredentialsError) -> T)
        async throws(CredentialsError) -> T
    {
        let (earlier, location) = (earlier, location)
        return try await record.change { text throws(CredentialsError) -> (String?, T) in
            let stored = try Self.stored(text, earlier: text == nil ? earlier.text() : nil, location: location)
            var users = stored.users
            let next = max(stored.next ?? 1, (users.map(\.id).max() ?? 0) + 1)
            let result = try body(&users, next)
            let written = Stored(users: users, next: max(next, (users.map(\.id).max() ?? 0) + 1))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            guard let data = try? encoder.encode(written) else {
                throw CredentialsError(.writeFailed, "The people could not be saved.")
            }
            return (String(decoding: data, as: UTF8.self), result)
        }
    }

    private struct Stored: Codable {
        var users: [User]
        /// The id the next person added gets.
        var next: Int?
    }

    /// The list a record's text holds, or what an earlier owner password stands for.
    private static func stored(_ text: String?, earlier: String?, location: String) throws(CredentialsError) -> Stored {
        if let text {
            guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else {
                throw CredentialsError(.unreadableUsers, "The list of people cannot be read.", detail: location)
            }
            return stored
        }
        guard let earlier else { return Stored(users: []) }
        guard let hash = try? JSONDecoder().decode(PasswordHash.self, from: Data(earlier.utf8)) else {
            throw CredentialsError(
                .unreadableOwner, "The owner's password cannot be read. On the server's computer, run `cameraroll passwd`.",
                detail: location)
        }
        return Stored(users: [User(id: 1, name: firstAdminName, admin: true, password: hash)])
    }
}

/// The last list read, by the versions of the records it was read from.
private final class ParsedUsers: Sendable {
    struct Version: Sendable {
        let users: [UserAccounts.User]
        /// By id, of those with a password: its salt is new with every password.
        let stamps: [Int: String]

        init(users: [UserAccounts.User]) {
            self.users = users
            stamps = Dictionary(
                uniqueKeysWithValues: users.compactMap { user in
                    user.password.map { (user.id, Hex.text(Digest.sha256(Array("\(user.id) \($0.salt) \($0.hash)".utf8)))) }
                })
        }
    }

    private let state = Mutex<(key: String, version: Version)?>(nil)

    func version(for key: String) -> Version? {
        state.withLock { $0?.key == key ? $0?.version : nil }
    }

    func keep(_ version: Version, for key: String) {
        state.withLock { $0 = (key, version) }
    }
}
