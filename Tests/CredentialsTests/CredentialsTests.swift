import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Credentials

@Suite struct PasswordTests {
    @Test func theRightPasswordVerifiesAndNoOther() throws {
        let hash = try PasswordHash(password: "correct horse battery")
        #expect(hash.verifies("correct horse battery"))
        #expect(!hash.verifies("correct horse batterY"))
        #expect(!hash.verifies(""))
        #expect(hash.n == PasswordHash.standardCost && hash.salt.count == 32 && hash.hash.count == 64)
        let again = try PasswordHash(password: "correct horse battery")
        #expect(again.salt != hash.salt && again.hash != hash.hash, "a fresh salt each time")
    }

    @Test func shortPasswordsAreRefused() {
        #expect(throws: CredentialsError(.weakPassword, "The password must have at least 8 characters.")) {
            try PasswordHash(password: "1234567")
        }
    }

    @Test func thePeoplesFileIsPrivateAndReplaced() async throws {
        let folder = TemporaryDirectory()
        let users = UserAccounts(dataFolder: folder.url)
        #expect(try users.all().isEmpty && users.stamp(of: 1) == nil)
        try await users.setFirstAdminPassword("first password")
        try await users.setPassword("second password", of: "Owner")
        let owner = try #require(try users.firstAdmin())
        #expect(owner.id == 1 && owner.name == "owner" && owner.admin)
        let hash = try #require(owner.password)
        #expect(hash.verifies("second password") && !hash.verifies("first password"))
        let mode = try FileManager.default.attributesOfItem(atPath: users.location)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["users.json", "users.lock"],
            "no temporary left")
        await #expect(throws: CredentialsError(.unknownUser, "Nobody here is called anna.")) {
            try await users.setPassword("a password for anna", of: "anna")
        }
    }

    /// The owner password of a library made before there were people is its first admin's, read
    /// in place until the first change, and kept in the list from then on.
    @Test func anEarlierOwnerPasswordIsTheFirstAdmins() async throws {
        let folder = TemporaryDirectory()
        let earlier = try PasswordHash(password: "the owner's old password")
        try JSONEncoder().encode(earlier).write(to: folder.url.appendingPathComponent("owner.json"))
        let users = UserAccounts(dataFolder: folder.url)
        #expect(try users.all() == [UserAccounts.User(id: 1, name: "owner", admin: true, password: earlier)])
        let stamp = try #require(users.stamp(of: 1))

        try await users.setPassword("a newer password", of: "owner")
        #expect(try users.firstAdmin()?.password?.verifies("a newer password") == true)
        #expect(users.stamp(of: 1) != stamp, "the old password's sessions end")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("owner.json"))
        #expect(try users.all().map(\.name) == ["owner"], "the list no longer reads the earlier file")
    }

    /// People are added with a name nobody has (in any case), get ids never given before, and
    /// the first person of a library without anyone is its admin.
    @Test func peopleAreAddedWithNamesOfTheirOwn() async throws {
        let folder = TemporaryDirectory()
        let users = UserAccounts(dataFolder: folder.url)
        let first = try await users.add(" Maria ", admin: false, password: "maria's password")
        #expect(first.id == 1 && first.admin && first.name == "Maria", "the first is the admin, her name trimmed")
        let anna = try await users.add("Anna", admin: false, password: "anna's password")
        #expect(anna.id == 2 && !anna.admin)
        await #expect(throws: CredentialsError(.nameTaken, "Someone here is called ANNA already.")) {
            try await users.add("ANNA", admin: true, password: "another password")
        }
        for bad in ["", "   ", String(repeating: "x", count: 65), "two\nlines"] {
            await #expect(throws: CredentialsError.self, "\(bad)") { try await users.add(bad, admin: false, password: "a long password") }
        }
        await #expect(throws: CredentialsError(.weakPassword, "The password must have at least 8 characters.")) {
            try await users.add("Ben", admin: false, password: "short")
        }
        #expect(try users.all().map(\.name) == ["Maria", "Anna"])
        #expect(try users.user(named: "anna")?.password?.verifies("anna's password") == true)
        #expect(users.stamp(of: 2) != nil && users.stamp(of: 2) != users.stamp(of: 1))
    }

    @Test func aDamagedFileIsAnErrorNotNobody() throws {
        let folder = TemporaryDirectory()
        try Data("{".utf8).write(to: folder.url.appendingPathComponent("owner.json"))
        #expect(throws: CredentialsError.self) { try UserAccounts(dataFolder: folder.url).all() }
        try Data("[]".utf8).write(to: folder.url.appendingPathComponent("users.json"))
        #expect(throws: CredentialsError.self) { try UserAccounts(dataFolder: folder.url).firstAdmin() }
        #expect(UserAccounts(dataFolder: folder.url).stamp(of: 1) == nil, "nobody signs in with an unreadable list")
    }

    /// A sign-in as nobody costs the check a wrong password costs, and fails.
    @Test func nobodysPasswordIsNone() {
        #expect(PasswordHash.nobodys.n == PasswordHash.standardCost && !PasswordHash.nobodys.verifies(""))
    }
}

@Suite struct SessionTests {
    static let stamps: SignInSessions.Stamps = { $0 == 1 ? "p1" : $0 == 2 ? "p2" : nil }

    @Test func sessionsLastTheirLifetimeAndCanEnd() async throws {
        let sessions = SignInSessions()
        let start = Date(timeIntervalSince1970: 1_000_000)
        let (token, session) = await sessions.create(user: 1, passwordStamp: "p1", now: start)
        #expect(session.user == 1)
        #expect(sessions.session(token, stamps: Self.stamps, now: start.addingTimeInterval(3600)) == session)
        #expect(sessions.session(token, stamps: Self.stamps, now: start.addingTimeInterval(SignInSessions.lifetime + 1)) == nil)
        let (other, _) = await sessions.create(user: 1, passwordStamp: "p1", now: start)
        try await sessions.end(other, stamps: Self.stamps)
        #expect(sessions.session(other, stamps: Self.stamps, now: start) == nil)
        #expect(sessions.session("not a token", stamps: Self.stamps, now: start) == nil)
    }

    /// Each session is its person's: a new password of one ends theirs and nobody else's.
    @Test func aNewPasswordEndsTheSessionsOfTheOldOne() async throws {
        let folder = TemporaryDirectory()
        let users = UserAccounts(dataFolder: folder.url)
        try await users.setFirstAdminPassword("the first password")
        let stamps: SignInSessions.Stamps = { users.stamp(of: $0) }
        let sessions = SignInSessions()
        let (token, _) = await sessions.create(user: 1, passwordStamp: try #require(users.stamp(of: 1)))
        let (someoneElse, _) = await sessions.create(user: 2, passwordStamp: "p2")
        #expect(sessions.session(token, stamps: stamps) != nil)
        #expect(sessions.session(someoneElse, stamps: stamps) == nil, "nobody has id 2")
        try await users.setPassword("the second password", of: "owner")
        #expect(sessions.session(token, stamps: stamps) == nil)
    }

    @Test func sessionsOutliveARestartButTheirFileHoldsNoToken() async throws {
        let folder = TemporaryDirectory()
        let file = SignInSessions.file(in: folder.url)
        let (token, session) = await SignInSessions(file: file).create(user: 2, passwordStamp: "p2")
        let (ended, _) = await SignInSessions(file: file).create(user: 1, passwordStamp: "p1")
        let restarted = SignInSessions(file: file)
        #expect(restarted.session(token, stamps: Self.stamps) == session)
        try await restarted.end(ended, stamps: Self.stamps)
        #expect(SignInSessions(file: file).session(ended, stamps: Self.stamps) == nil)
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(!stored.contains(token) && !stored.contains(ended))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func theCSRFTokenMustMatch() async throws {
        let (_, session) = await SignInSessions().create(user: 1, passwordStamp: "p1")
        #expect(SignInSessions.csrfMatches(session, session.csrfToken))
        #expect(!SignInSessions.csrfMatches(session, nil))
        #expect(!SignInSessions.csrfMatches(session, String(session.csrfToken.dropLast()) + "x"))
    }
}

@Suite struct LockOutTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    @Test func anAddressIsLockedAfterTheLimitUntilTheWindowHasPassedSinceTheLast() {
        let lockOut = LockOut(limit: 3, window: 60)
        for second in [0, 30, 50] {
            #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(Double(second))) == nil)
            lockOut.attempt(from: "10.0.0.2", now: start.addingTimeInterval(Double(second)))
        }
        #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(51)) == 59)
        #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(100)) == 10, "the first failure's age does not end it")
        #expect(lockOut.wait(for: "10.0.0.3", now: start.addingTimeInterval(51)) == nil, "other addresses may still try")
        #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(111)) == nil)
    }

    @Test func failuresFurtherApartThanTheWindowDoNotLock() {
        let lockOut = LockOut(limit: 2, window: 60)
        lockOut.attempt(from: "10.0.0.2", now: start)
        lockOut.attempt(from: "10.0.0.2", now: start.addingTimeInterval(61))
        #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(62)) == nil)
    }

    @Test func anIPv6NetworkIsLockedAfterItsLimitWhicheverAddressesFailed() {
        let lockOut = LockOut(limit: 3, networkLimit: 4, window: 60)
        for index in 1...4 { lockOut.attempt(from: "2001:db8:1:2::\(index)", now: start) }
        #expect(lockOut.wait(for: "2001:db8:1:2:aaaa:bbbb:cccc:dddd", now: start) == 60)
        #expect(lockOut.wait(for: "2001:DB8:1:2::1%eth0", now: start) == 60, "one address, however it is written")
        #expect(lockOut.wait(for: "2001:db8:1:3::1", now: start) == nil, "the next /64")
        #expect(lockOut.attempt(from: "2001:db8:1:2::9", now: start).suspicion == 4)
        #expect(lockOut.attempt(from: "2001:db8:1:3::1", now: start).suspicion == 0)
    }

    @Test func anIPv4AddressIsTheSameThroughADualStackSocketAndItsOwnNetwork() {
        let lockOut = LockOut(limit: 2, networkLimit: 2, window: 60)
        lockOut.attempt(from: "::ffff:192.0.2.1", now: start)
        lockOut.attempt(from: "192.0.2.1", now: start)
        #expect(lockOut.wait(for: "192.0.2.1", now: start) == 60)
        #expect(lockOut.wait(for: "::FFFF:192.0.2.1", now: start) == 60)
        #expect(lockOut.wait(for: "192.0.2.2", now: start) == nil)
        #expect(lockOut.wait(for: "::ffff:192.0.2.2", now: start) == nil)
    }

    /// Everyone's failures together lock nobody out; they slow every try down, boundedly.
    @Test func manyNetworksTogetherSlowEveryoneAndLockNobody() {
        let lockOut = LockOut(limit: 2, window: 60, freeFailures: 3, delayStep: 0.5, maxDelay: 2)
        let delays = (0..<10).map { lockOut.attempt(from: "2001:db8:\($0)::1", now: start).delay }
        #expect(delays == [0, 0, 0, 0.5, 1, 1.5, 2, 2, 2, 2])
        #expect(lockOut.wait(for: "2001:db8:ffff::1", now: start) == nil)
        #expect(lockOut.attempt(from: "2001:db8:ffff::1", now: start.addingTimeInterval(61)).delay == 0, "old failures cost nothing")
    }

    @Test func successClearsTheAddressesCountAndNoOther() async throws {
        let lockOut = LockOut(limit: 2, networkLimit: 3, window: 60)
        lockOut.attempt(from: "2001:db8::1", now: start)
        lockOut.attempt(from: "2001:db8::2", now: start)
        lockOut.attempt(from: "2001:db8::2", now: start)
        try await lockOut.succeeded("2001:db8::2")
        lockOut.attempt(from: "2001:db8::2", now: start)
        #expect(lockOut.wait(for: "2001:db8::2", now: start) == nil)
        lockOut.attempt(from: "2001:db8::1", now: start)
        #expect(lockOut.wait(for: "2001:db8::1", now: start) == 60, "another address of the network keeps its failures")
    }
}

@Suite struct PasswordCheckTests {
    /// Jobs named by letters; each returned job is run, and says its name.
    final class Log: Sendable {
        let names = Mutex<[String]>([])
        func job(_ name: String) -> CheckOrder.Job { { self.names.withLock { $0.append(name) } } }
    }

    @Test func theLeastSuspectWaitingCheckGoesNextThenTheFirstToArrive() {
        let log = Log()
        var order = CheckOrder(width: 1)
        order.add(suspicion: 7, log.job("running"))?()
        for (name, suspicion) in [("a", 4), ("b", 0), ("c", 9), ("d", 0)] {
            #expect(order.add(suspicion: suspicion, log.job(name)) == nil, "no place is free")
        }
        while let next = order.finished() { next() }
        #expect(log.names.withLock { $0 } == ["running", "b", "d", "a", "c"])
    }

    @Test func checksWaitForAPlaceAndNoneIsRefused() async throws {
        let hash = try PasswordHash(password: "the owner's password", n: 1 << 10)
        let checks = PasswordChecks(width: 2)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<12 {
                group.addTask {
                    await checks.verify(index == 11 ? "the owner's password" : "guess \(index)", against: hash, suspicion: index)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 12 && results.filter { $0 }.count == 1)
    }
}

@Suite struct CapabilityTests {
    let now = Date(timeIntervalSince1970: 2_000_000_000)

    @Test func aCapabilityGrantsItsAssetUntilItExpires() throws {
        let capabilities = CapabilityURLs()
        let url = capabilities.sign("/media/abc/original", assetID: "abc", now: now)
        let value = try #require(url.components(separatedBy: "?cap=").last)
        #expect(capabilities.grants(value, assetID: "abc", kind: "original", edit: nil, now: now.addingTimeInterval(60)))
        #expect(!capabilities.grants(value, assetID: "abd", kind: "original", edit: nil, now: now), "another asset")
        #expect(!capabilities.grants(value, assetID: "abc", kind: "thumbnail", edit: nil, now: now), "another kind of the same asset")
        #expect(!capabilities.grants(value, assetID: "abc", kind: "original", edit: "0,0,1,1", now: now), "an edit it was not made of")
        #expect(
            !capabilities.grants(
                value, assetID: "abc", kind: "original", edit: nil, now: now.addingTimeInterval(CapabilityURLs.lifetime + 1)),
            "expired")
        #expect(
            !capabilities.grants(
                value.replacingOccurrences(of: "\(Int(now.timeIntervalSince1970) + 3600).", with: "9999999999."), assetID: "abc",
                kind: "original", edit: nil, now: now), "a longer expiry is not signed")
        #expect(!CapabilityURLs().grants(value, assetID: "abc", kind: "original", edit: nil, now: now), "another server's key")
    }

    @Test func anEditsCapabilityGrantsThatEditOnly() throws {
        let capabilities = CapabilityURLs()
        let url = capabilities.sign("/media/abc/trimmed", assetID: "abc", edit: "1e-05,2.5", now: now)
        let query = try #require(URLComponents(string: url)?.queryItems)
        #expect(query.map(\.name) == ["cap", "edit"])
        let value = try #require(query.first?.value)
        #expect(query.last?.value == "1e-05,2.5")
        #expect(capabilities.grants(value, assetID: "abc", kind: "trimmed", edit: "1e-05,2.5", now: now))
        #expect(!capabilities.grants(value, assetID: "abc", kind: "trimmed", edit: "0,2.5", now: now), "another range")
        #expect(!capabilities.grants(value, assetID: "abc", kind: "trimmed", edit: nil, now: now), "no range: the whole movie")
    }
}

extension CapabilityTests {
    @Test func anAppsLinkNamesItsAppAndLastsItsLifetime() throws {
        let capabilities = CapabilityURLs()
        let url = capabilities.sign("/media/abc/original", assetID: "abc", app: "app1", lifetime: 10, now: now)
        let query = try #require(URLComponents(string: url)?.queryItems)
        #expect(query.map(\.name) == ["cap", "app"] && query.last?.value == "app1")
        let value = try #require(query.first?.value)
        #expect(capabilities.grants(value, assetID: "abc", kind: "original", edit: nil, app: "app1", now: now.addingTimeInterval(9)))
        #expect(!capabilities.grants(value, assetID: "abc", kind: "original", edit: nil, app: "app1", now: now.addingTimeInterval(11)))
        #expect(!capabilities.grants(value, assetID: "abc", kind: "original", edit: nil, app: "app2", now: now), "another app")
        #expect(!capabilities.grants(value, assetID: "abc", kind: "original", edit: nil, now: now), "without its app")
    }
}

@Suite struct WebOriginTests {
    @Test(arguments: [
        ("https://blog.example", "https://blog.example"), ("HTTPS://Blog.Example/", "https://blog.example"),
        ("https://blog.example:443", "https://blog.example"), ("http://127.0.0.1:9090", "http://127.0.0.1:9090"),
        ("http://localhost:80", "http://localhost"), ("http://[::1]:8080", "http://[::1]:8080"),
        ("https://xn--bcher-kva.example", "https://xn--bcher-kva.example"),
    ])
    func originsAreWrittenAsBrowsersWriteThem(_ text: String, _ written: String) throws {
        #expect(try WebOrigin(text).description == written)
    }

    @Test(arguments: [
        "null", "blog.example", "ftp://blog.example", "https://", "https://blog.example/path", "https://user@blog.example",
        "https://blog.example?x", "https://blog.example#x", "https://blog..example", "https://-blog.example", "https://blog.example:0",
        "https://blog.example:65536", "https://blog.example:8a", "https://[::1", "https://[zz]", "https://b\u{00FC}cher.example",
        "https://blog.example:", "javascript://x", "https://blog.example //",
    ])
    func anythingButAnOriginIsRefused(_ text: String) {
        #expect(throws: CredentialsError.self) { try WebOrigin(text) }
    }
}

@Suite struct AllowedAppsTests {
    let directory = TemporaryDirectory("cameraroll-apps")
    var folder: URL { URL(fileURLWithPath: directory.file("data")) }

    @Test func appsAreKeptChangedAndRemovedByIdOrOrigin() async throws {
        let apps = AllowedApps(dataFolder: folder)
        let blog = try WebOrigin("https://blog.example")
        #expect(apps.list(owner: 1).isEmpty && !apps.allows(blog))
        let added = try await apps.add(blog, name: "  My blog ", linkLifetime: 60, owner: 1)
        #expect(added.name == "My blog" && added.linkLifetime == 60 && apps.allows(blog))
        let changed = try await apps.add(blog, name: "Blog", linkLifetime: 120, owner: 1)
        #expect(changed.id == added.id, "a change keeps its links good")
        #expect(AllowedApps(dataFolder: folder).list(owner: 1) == [changed], "kept in the file")
        let shop = try await apps.add(try WebOrigin("https://shop.example"), name: "Shop", owner: 1)
        #expect(shop.linkLifetime == AllowedApps.defaultLinkLifetime)
        #expect(try await apps.remove("https://blog.example/", owner: 1)?.id == added.id)
        #expect(try await apps.remove(shop.id, owner: 1)?.name == "Shop")
        #expect(try await apps.remove(shop.id, owner: 1) == nil)
        #expect(apps.list(owner: 1).isEmpty && apps.app(id: added.id) == nil)
        var info = stat()
        #expect(stat(apps.location, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    /// Each person keeps their own: two may allow one site, each with their name and lifetime;
    /// one's removal leaves the other's; a pick for a site another allowed uses one's own app.
    @Test func eachPersonKeepsTheirOwnSites() async throws {
        let apps = AllowedApps(dataFolder: folder)
        let blog = try WebOrigin("https://blog.example")
        let mine = try await apps.add(blog, name: "My blog", linkLifetime: 60, owner: 1)
        #expect(apps.allows(blog) && apps.list(owner: 2).isEmpty && apps.app(origin: blog, owner: 2) == nil)
        #expect(apps.forPicker(mine, owner: 2) == nil, "not hers to pick for")
        let hers = try await apps.add(blog, name: "Anna's blog", linkLifetime: 600, owner: 2)
        #expect(hers.id != mine.id && apps.list(owner: 1) == [mine] && apps.list(owner: 2) == [hers])
        #expect(apps.forPicker(mine, owner: 2) == hers && apps.forPicker(mine, owner: 1) == mine)
        let once = try await apps.allowOnce(try WebOrigin("https://once.example"), duration: 60, owner: 2)
        #expect(apps.forPicker(once, owner: 2) == once)
        #expect(apps.forPicker(once, owner: 1) == nil, "allowed once by her, for her picks alone")
        #expect(try await apps.remove(mine.id, owner: 2) == nil, "another's is not there")
        #expect(try await apps.remove("https://blog.example", owner: 2)?.id == hers.id)
        #expect(apps.list(owner: 1) == [mine])
        _ = try await apps.add(try WebOrigin("https://shop.example"), name: "Shop", owner: 2)
        #expect(try await apps.removeAll(owner: 2) == 1)
        #expect(apps.list(owner: 1) == [mine] && apps.list(owner: 2).isEmpty)
        // A list from before there were people is the first admin's.
        try Data(#"[{"id":"ab","origin":"https://old.example","name":"Old","linkLifetime":60,"added":"2026-01-01T00:00:00Z"}]"#.utf8)
            .write(to: folder.appendingPathComponent("apps.json"))
        #expect(AllowedApps(dataFolder: folder).list(owner: 1).map(\.name) == ["Old"])
    }

    @Test func badNamesAndLifetimesAreRefused() async throws {
        let apps = AllowedApps(dataFolder: folder)
        let blog = try WebOrigin("https://blog.example")
        await #expect(throws: CredentialsError(.invalidAppName, "An app's name is 1 to 100 characters, without control characters.")) {
            try await apps.add(blog, name: "  ", owner: 1)
        }
        await #expect(throws: CredentialsError.self) { try await apps.add(blog, name: "a\u{7}b", owner: 1) }
        await #expect(throws: CredentialsError.self) { try await apps.add(blog, name: "Blog", linkLifetime: 0, owner: 1) }
        await #expect(throws: CredentialsError.self) { try await apps.add(blog, name: "Blog", linkLifetime: 31 * 86400, owner: 1) }
        #expect(apps.list(owner: 1).isEmpty)
    }

    @Test func anotherProcessesChangeIsSeenAtTheNextLook() async throws {
        let server = AllowedApps(dataFolder: folder)
        let blog = try WebOrigin("https://blog.example")
        #expect(!server.allows(blog))
        let app = try await AllowedApps(dataFolder: folder).add(blog, name: "Blog", owner: 1)
        #expect(server.app(id: app.id) == app)
        try await AllowedApps(dataFolder: folder).remove(app.id, owner: 1)
        #expect(server.app(id: app.id) == nil && !server.allows(blog))
    }

    @Test func aSiteAllowedOnceIsForgottenAfterItsTimeAndNeverWritten() async throws {
        let apps = AllowedApps(dataFolder: folder)
        let now = Date()
        let site = try WebOrigin("http://127.0.0.1:9090")
        let once = try await apps.allowOnce(site, duration: 60, owner: 1, now: now)
        #expect(once.name == "127.0.0.1:9090" && once.expires != nil)
        #expect(apps.allows(site, now: now.addingTimeInterval(59)) && apps.app(id: once.id, now: now.addingTimeInterval(59)) == once)
        #expect(apps.app(origin: site, owner: 1) == nil, "not among the kept apps")
        #expect(!apps.allows(site, now: now.addingTimeInterval(61)) && apps.app(id: once.id, now: now.addingTimeInterval(61)) == nil)
        #expect(!FileManager.default.fileExists(atPath: apps.location))
    }
}

@Suite struct CapabilityKeyTests {
    let directory = TemporaryDirectory("cameraroll-capability-key")
    var folder: URL { URL(fileURLWithPath: directory.file("data")) }

    /// The key lives in the data folder: a link outlives a restart, and a second server over the
    /// same data checks it alike; another folder's key, or a forged key id, does not.
    @Test func theKeptKeySignsLinksThatEveryServerOverTheFolderAccepts() throws {
        let key = try CapabilityKey.kept(in: folder)
        #expect(try CapabilityKey.kept(in: folder) == key)
        var info = stat()
        #expect(stat(folder.appendingPathComponent("capability-key.json").path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let url = CapabilityURLs(key: key).sign("/media/abc/original", assetID: "abc")
        let value = try #require(URLComponents(string: url)?.queryItems?.first?.value)
        #expect(value.hasPrefix("\(key.id)."))
        #expect(CapabilityURLs(key: try CapabilityKey.kept(in: folder)).grants(value, assetID: "abc", kind: "original", edit: nil))
        let elsewhere = try CapabilityKey.kept(in: URL(fileURLWithPath: directory.file("other")))
        #expect(!CapabilityURLs(key: elsewhere).grants(value, assetID: "abc", kind: "original", edit: nil))
        let forged = value.replacingOccurrences(of: "\(key.id).", with: "\(elsewhere.id).")
        #expect(!CapabilityURLs(key: key).grants(forged, assetID: "abc", kind: "original", edit: nil))
    }

    @Test func aDamagedKeyFileSaysWhatToDo() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\"id\": \"x\", \"secret\": [1, 2]}".utf8).write(to: folder.appendingPathComponent("capability-key.json"))
        #expect(throws: CredentialsError.self) { try CapabilityKey.kept(in: folder) }
    }
}

/// Quotas as people write them for `users quota`, and sizes as the pages show them.
@Suite struct StorageSizeTests {
    @Test func sizesReadAsPeopleWriteThem() throws {
        let read: [(String, Int64)] = [
            ("20GB", 20_000_000_000), ("500 MB", 500_000_000), ("1.5tb", 1_500_000_000_000), ("1073741824", 1_073_741_824),
            (" 2 g ", 2_000_000_000), ("10k", 10_000), ("1000TB", StorageSize.largest), ("1b", 1),
        ]
        for (text, bytes) in read { #expect(try StorageSize.bytes(text) == bytes, "\(text)") }
        for refused in [
            "", "GB", "0", "0.4", "-1GB", "1001TB", "1e9", "12..5GB", "5 XB", "nan", "inf", "٣GB", String(repeating: "9", count: 40),
        ] {
            #expect(throws: CredentialsError.self, "\(refused)") { try StorageSize.bytes(refused) }
        }
    }

    @Test func sizesShowAsPhonesShowThem() {
        let shown: [(Int64, String)] = [
            (1, "1 byte"), (999, "999 bytes"), (5000, "5 KB"), (3662, "3.7 KB"), (1_500_000_000_000, "1.5 TB"), (123_456_789, "123 MB"),
            (20_000_000_000, "20 GB"),
        ]
        for (bytes, text) in shown { #expect(StorageSize.text(bytes) == text) }
    }
}
