import Credentials
import Foundation
import TestSupport
import Testing

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
        #expect(throws: CredentialsError("weak_password", "The password must have at least 8 characters.")) {
            try PasswordHash(password: "1234567")
        }
    }

    @Test func theOwnersFileIsPrivateAndReplaced() throws {
        let folder = TemporaryDirectory()
        let account = OwnerAccount(dataFolder: folder.url)
        #expect(!account.hasPassword)
        try account.setPassword("first password")
        try account.setPassword("second password")
        let hash = try #require(try account.passwordHash())
        #expect(hash.verifies("second password") && !hash.verifies("first password"))
        let mode = try FileManager.default.attributesOfItem(atPath: account.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["owner.json"])
    }

    @Test func aDamagedFileSaysWhatToDo() throws {
        let folder = TemporaryDirectory()
        let account = OwnerAccount(dataFolder: folder.url)
        try Data("{".utf8).write(to: account.file)
        #expect(throws: CredentialsError.self) { try account.passwordHash() }
    }
}

@Suite struct SessionTests {
    @Test func sessionsLastTheirLifetimeAndCanEnd() {
        let sessions = SignInSessions()
        let start = Date(timeIntervalSince1970: 1_000_000)
        let (token, session) = sessions.create(passwordStamp: "p1", now: start)
        #expect(sessions.session(token, passwordStamp: "p1", now: start.addingTimeInterval(3600)) == session)
        #expect(sessions.session(token, passwordStamp: "p1", now: start.addingTimeInterval(SignInSessions.lifetime + 1)) == nil)
        let (other, _) = sessions.create(passwordStamp: "p1", now: start)
        sessions.end(other)
        #expect(sessions.session(other, passwordStamp: "p1", now: start) == nil)
        #expect(sessions.session("not a token", passwordStamp: "p1", now: start) == nil)
    }

    @Test func aNewPasswordEndsTheSessionsOfTheOldOne() throws {
        let folder = TemporaryDirectory()
        let account = OwnerAccount(dataFolder: folder.url)
        try account.setPassword("the first password")
        let sessions = SignInSessions()
        let (token, _) = sessions.create(passwordStamp: try #require(account.stamp()))
        #expect(sessions.session(token, passwordStamp: account.stamp()) != nil)
        try account.setPassword("the second password")
        #expect(sessions.session(token, passwordStamp: account.stamp()) == nil)
    }

    @Test func sessionsOutliveARestartButTheirFileHoldsNoToken() throws {
        let folder = TemporaryDirectory()
        let file = SignInSessions.file(in: folder.url)
        let (token, session) = SignInSessions(file: file).create(passwordStamp: "p1")
        let (ended, _) = SignInSessions(file: file).create(passwordStamp: "p1")
        let restarted = SignInSessions(file: file)
        #expect(restarted.session(token, passwordStamp: "p1") == session)
        restarted.end(ended)
        #expect(SignInSessions(file: file).session(ended, passwordStamp: "p1") == nil)
        let stored = try String(contentsOf: file, encoding: .utf8)
        #expect(!stored.contains(token) && !stored.contains(ended))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func theCSRFTokenMustMatch() {
        let (_, session) = SignInSessions().create(passwordStamp: "p1")
        #expect(SignInSessions.csrfMatches(session, session.csrfToken))
        #expect(!SignInSessions.csrfMatches(session, nil))
        #expect(!SignInSessions.csrfMatches(session, String(session.csrfToken.dropLast()) + "x"))
    }
}

@Suite struct LockOutTests {
    @Test func anAddressIsLockedAfterTheLimitUntilThePenaltyIsOver() {
        let lockOut = LockOut(limit: 3, window: 60, penalty: 120)
        let start = Date(timeIntervalSince1970: 1_000_000)
        for second in 0..<3 {
            #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(Double(second))) == nil)
            lockOut.failed("10.0.0.2", now: start.addingTimeInterval(Double(second)))
        }
        #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(3)) == 119)
        #expect(lockOut.wait(for: "10.0.0.3", now: start.addingTimeInterval(3)) == nil, "other addresses may still try")
        #expect(lockOut.wait(for: "10.0.0.2", now: start.addingTimeInterval(123)) == nil)
    }

    @Test func manyAddressesTogetherLockEveryone() {
        let lockOut = LockOut(limit: 2, window: 60, penalty: 60)
        let now = Date(timeIntervalSince1970: 1_000_000)
        for index in 0..<20 { lockOut.failed("10.0.1.\(index)", now: now) }
        #expect(lockOut.wait(for: "10.0.2.1", now: now) != nil)
    }

    @Test func successClearsTheCount() {
        let lockOut = LockOut(limit: 2)
        lockOut.failed("10.0.0.2")
        lockOut.succeeded("10.0.0.2")
        lockOut.failed("10.0.0.2")
        #expect(lockOut.wait(for: "10.0.0.2") == nil)
    }
}

@Suite struct CapabilityTests {
    @Test func aCapabilityGrantsItsAssetUntilItExpires() throws {
        let capabilities = CapabilityURLs()
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let url = capabilities.sign("/media/abc/trimmed", assetID: "abc", now: now)
        let value = try #require(url.components(separatedBy: "?cap=").last)
        #expect(capabilities.grants(value, assetID: "abc", kind: "trimmed", now: now.addingTimeInterval(60)))
        #expect(!capabilities.grants(value, assetID: "abd", kind: "trimmed", now: now), "another asset")
        #expect(!capabilities.grants(value, assetID: "abc", kind: "original", now: now), "another kind of the same asset")
        #expect(
            !capabilities.grants(value, assetID: "abc", kind: "trimmed", now: now.addingTimeInterval(CapabilityURLs.lifetime + 1)),
            "expired")
        #expect(
            !capabilities.grants(
                value.replacingOccurrences(of: "\(Int(now.timeIntervalSince1970) + 3600).", with: "9999999999."), assetID: "abc",
                kind: "trimmed", now: now), "a longer expiry is not signed")
        #expect(!CapabilityURLs().grants(value, assetID: "abc", kind: "trimmed", now: now), "another server's key")
    }
}
