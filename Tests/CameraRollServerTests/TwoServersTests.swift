import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import PostgreSQL
import S3
import Storage
import TestSupport
import Testing

/// Two servers over one library on PostgreSQL and an S3 bucket (radosgw), each with its own data
/// folder: what one stores the other lists and serves with the same validators, the links a
/// picker on one gives out open on the other, and signing in (sessions, signing out, the
/// password, the lock-out, the allowed apps) is one thing across both. Loopback is nobody's here,
/// so the tests sign in as the owner would.
@Suite struct TwoServersTests {
    static let password = "the owner's long password"

    final class Cluster: Sendable {
        let first: LiveServer
        let second: LiveServer
        /// What the first server keeps of the shared sign-in state, for changing the password.
        let credentials: SharedCredentials
        /// The owner's cookie and CSRF token, signed in through the first server.
        let owner: [String: String]

        /// `postgres`: a cluster of the test's own (which it may stop), else the tests' shared one.
        init(postgres: ThrowawayPostgres.Dedicated? = nil) async throws {
            let url = try await ThrowawayPostgres.newDatabase(on: postgres?.url)
            let gateway = try await ThrowawayCeph.start()
            let bucket = S3Bucket(
                endpoint: gateway.endpoint, name: ThrowawayCeph.newBucketName(), region: "us-east-1", accessKeyID: gateway.accessKeyID,
                secretAccessKey: gateway.secretAccessKey)
            try await offThePool { try S3Client(bucket: bucket).createBucket() }
            (first, credentials) = try await Self.server(url, bucket)
            (second, _) = try await Self.server(url, bucket)
            try await UserAccounts(shared: credentials).setFirstAdminPassword(TwoServersTests.password)
            owner = try await Self.signIn(on: first)
        }

        /// Signs in with the owner's password and returns the headers that ask as the owner.
        static func signIn(on server: LiveServer, from address: String = "127.0.0.1") async throws -> [String: String] {
            let reply = try await server.request(
                "POST", "/api/session", body: try JSONEncoder().encode(["password": TwoServersTests.password]),
                headers: ["X-Forwarded-For": address])
            let cookie = try #require(reply.header("Set-Cookie")?.split(separator: ";").first.map(String.init), "\(reply.status)")
            let csrf = try #require(reply.json["csrfToken"] as? String)
            return ["Cookie": cookie, "X-CSRF-Token": csrf]
        }

        /// Uploads a photo through the first server and presents a picker for it there: the
        /// asset's id and the session's.
        func presentPicker() async throws -> (asset: String, session: String) {
            let id = try #require(try await first.upload("photos/recurser__Landscape_1.jpg", headers: owner).json["id"] as? String)
            let session = try await first.request(
                "POST", "/api/picker/sessions", body: Data(#"{"sourceType":"photoLibrary","mediaTypes":["public.image"]}"#.utf8),
                headers: owner)
            return (id, try #require(session.json["id"] as? String))
        }

        /// Opens the picker and chooses the asset through `server`, as the picker's page would.
        func choose(_ asset: String, in session: String, through server: LiveServer) async throws {
            for (event, chosen) in [("open", nil), ("choose", asset)] as [(String, String?)] {
                var body = ["event": event]
                body["assetID"] = chosen
                let sent = try await server.request(
                    "POST", "/api/picker/sessions/\(session)/events", body: try JSONEncoder().encode(body), headers: owner)
                #expect(sent.status == 200, "\(String(decoding: sent.body, as: UTF8.self))")
            }
        }

        /// Both servers believe X-Forwarded-For from loopback, so a test can ask as a stranger.
        private static func server(_ url: String, _ bucket: S3Bucket) async throws -> (LiveServer, SharedCredentials) {
            let directory = TemporaryDirectory("cameraroll-cluster")
            let folder = DataFolder(directory.path)
            let database = try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL)
            let client = S3Client(bucket: bucket)
            let blobs = try S3BlobStore(client: client, cacheFolder: folder.originalsCache)
            let library = try Library(folder: folder, database: database, blobs: blobs, partialUploads: S3PartialUploads(client: client))
            let key = try await CapabilityKey.shared { offered in try await library.catalog.sharedRecord("capability-key", orElse: offered)
            }
            let shared = try await SharedCredentials.open(database: database)
            let server = try LiveServer(
                directory, library: library, capabilityKey: key, shared: shared,
                forwardedFor: ForwardedFor(proxies: [IPAddress("127.0.0.1")!]))
            return (server, shared)
        }
    }

    @Test func anUploadThroughOneIsListedAndServedByTheOtherWithTheSameValidator() async throws {
        let cluster = try await Cluster()
        let uploaded = try await cluster.first.upload("photos/exifsamples__Canon_40D.jpg", headers: cluster.owner)
        #expect(uploaded.status == 201)
        let id = try #require(uploaded.json["id"] as? String)
        let listed = try await cluster.second.get("/api/assets", headers: cluster.owner)
        #expect((listed.json["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])

        let fromFirst = try await cluster.first.get("/media/\(id)/thumbnail?size=256", headers: cluster.owner)
        let fromSecond = try await cluster.second.get("/media/\(id)/thumbnail?size=256", headers: cluster.owner)
        #expect(fromFirst.status == 200 && fromSecond.status == 200)
        let etag = try #require(fromFirst.header("ETag"))
        #expect(fromSecond.header("ETag") == etag, "the validator comes from the recipe, not the file")
        #expect(
            try await cluster.second.get("/media/\(id)/thumbnail?size=256", headers: cluster.owner.merging(["If-None-Match": etag]) { $1 })
                .status == 304)
        let original = try await cluster.second.get("/media/\(id)/original", headers: cluster.owner)
        #expect(original.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/exifsamples__Canon_40D.jpg")))))
    }

    @Test func aLinkOnePickerGaveOutOpensOnTheOther() async throws {
        let cluster = try await Cluster()
        let (id, sessionID) = try await cluster.presentPicker()
        try await cluster.choose(id, in: sessionID, through: cluster.first)
        let info = try #require(
            try await cluster.first.get("/api/picker/sessions/\(sessionID)", headers: cluster.owner).json["info"] as? [String: Any])
        let link = try #require(info["originalImage"] as? String)
        #expect(link.contains("cap="))
        let stranger = ["X-Forwarded-For": "198.51.100.7"]
        #expect(
            try await cluster.second.get("/media/\(id)/original", headers: stranger).status == 401,
            "a stranger without the link gets nothing")
        let opened = try await cluster.second.get(link, headers: stranger)
        #expect(opened.status == 200, "the key that signed the link is the one both servers share")
        #expect(opened.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/recurser__Landscape_1.jpg")))))
    }

    /// A link for people without an account, made through one server, opens on the other for a
    /// stranger, its password given on either, and ends on both the moment it is revoked.
    @Test func aSharedLinkMadeOnOneOpensOnTheOtherUntilRevoked() async throws {
        let cluster = try await Cluster()
        let id = try #require(
            try await cluster.first.upload("photos/recurser__Landscape_1.jpg", headers: cluster.owner).json["id"] as? String)
        let made = try await cluster.first.request(
            "POST", "/api/shares",
            body: Data(#"{"assetIDs":["\#(id)"],"password":"a guest's password","removeLocation":true,"allowDownload":true}"#.utf8),
            headers: cluster.owner)
        #expect(made.status == 201, "\(made.json)")
        let (linkID, url) = (try #require(made.json["id"] as? String), try #require(made.json["url"] as? String))
        let token = String(url.dropFirst("/s/".count))
        let stranger = ["X-Forwarded-For": "198.51.100.8"]
        let unlocked = try await cluster.first.request(
            "POST", "/api/shared/\(token)/unlock", body: Data(#"{"password":"a guest's password"}"#.utf8), headers: stranger)
        let cookie = try #require(unlocked.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let guest = stranger.merging(["Cookie": cookie]) { $1 }
        let items = try await cluster.second.get("/api/shared/\(token)", headers: guest)
        #expect((items.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
        #expect(try await cluster.second.get("/s/\(token)/media/\(id)/original", headers: guest).status == 200)

        #expect(try await cluster.first.request("DELETE", "/api/shares/\(linkID)", headers: cluster.owner).status == 204)
        #expect(try await cluster.second.get("/api/shared/\(token)", headers: guest).status == 404, "revoked on both at once")
    }

    /// A passkey's ceremony started on one server ends on the other: challenges are signed with
    /// the shared key, the passkeys kept in the shared list of people.
    @Test func aPasskeyAddedThroughOneSignsInThroughTheOther() async throws {
        let cluster = try await Cluster()
        let host = ["Host": "localhost"]
        let authenticator = try await SoftAuthenticator.make(site: "localhost", origin: "https://localhost")
        let owner = cluster.owner.merging(host) { $1 }
        let options = try await cluster.first.request("POST", "/api/passkeys/options", headers: owner)
        let challenge = try #require(options.json["challenge"] as? String)
        let created = authenticator.registration(challenge)
        let fields = [
            "name": "the owner's key", "challenge": challenge, "clientDataJSON": Base64URL.text(created.clientDataJSON),
            "attestationObject": Base64URL.text(created.attestationObject),
        ]
        let added = try await cluster.second.request("POST", "/api/passkeys", body: try JSONEncoder().encode(fields), headers: owner)
        #expect(added.status == 201, "\(added.json)")

        let stranger = host.merging(["X-Forwarded-For": "198.51.100.9"]) { $1 }
        let signIn = try await cluster.second.request("POST", "/api/session/passkey/options", headers: stranger)
        let asked = try #require(signIn.json["challenge"] as? String)
        let answer = try await authenticator.assertion(asked, count: 1)
        let answered = [
            "challenge": asked, "id": Base64URL.text(authenticator.credentialID), "clientDataJSON": Base64URL.text(answer.clientDataJSON),
            "authenticatorData": Base64URL.text(answer.authenticatorData), "signature": Base64URL.text(answer.signature),
        ]
        let signedIn = try await cluster.first.request(
            "POST", "/api/session/passkey", body: try JSONEncoder().encode(answered), headers: stranger)
        #expect(signedIn.status == 200, "\(signedIn.json)")
        let cookie = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        #expect(try await cluster.second.get("/api/assets", headers: stranger.merging(["Cookie": cookie]) { $1 }).status == 200)
        let again = try await cluster.second.request(
            "POST", "/api/session/passkey", body: try JSONEncoder().encode(answered), headers: stranger)
        #expect(again.status == 401, "the same answer, replayed on the other server")
    }

    @Test func aSignInOnOneWorksOnTheOtherAndSigningOutEndsItOnBoth() async throws {
        let cluster = try await Cluster()
        #expect(try await cluster.second.get("/api/assets").status == 401, "loopback is nobody's")
        #expect(try await cluster.second.get("/api/assets", headers: cluster.owner).status == 200, "a session of the first")
        let state = try await cluster.second.get("/api/session", headers: cluster.owner).json
        #expect(state["signedIn"] as? Bool == true && state["csrfToken"] as? String == cluster.owner["X-CSRF-Token"])
        // Its last character changed: to "0", unless it was one already (then the "forgery" was the token, once in a while).
        let cookie = try #require(cluster.owner["Cookie"])
        let forged = cluster.owner.merging(["Cookie": String(cookie.dropLast()) + (cookie.hasSuffix("0") ? "1" : "0")]) { $1 }
        #expect(try await cluster.second.get("/api/assets", headers: forged).status == 401, "a token is checked, not looked up")

        #expect(try await cluster.second.request("DELETE", "/api/session", headers: cluster.owner).status == 200)
        #expect(try await cluster.second.get("/api/assets", headers: cluster.owner).status == 401, "ended where it was ended")
        #expect(
            try await eventually { try await cluster.first.get("/api/assets", headers: cluster.owner).status == 401 },
            "and on the other server too")
    }

    @Test func aNewPasswordSignsEveryoneOutOnEveryServer() async throws {
        let cluster = try await Cluster()
        let onSecond = try await Cluster.signIn(on: cluster.second)
        try await UserAccounts(shared: cluster.credentials).setFirstAdminPassword("a brand new password")
        #expect(
            try await eventually {
                let first = try await cluster.first.get("/api/assets", headers: cluster.owner).status
                let second = try await cluster.second.get("/api/assets", headers: onSecond).status
                return first == 401 && second == 401
            })
        let old = try await cluster.second.request(
            "POST", "/api/session", body: try JSONEncoder().encode(["password": Self.password]), headers: ["X-Forwarded-For": "127.0.0.1"])
        #expect(old.status == 401, "the old password is gone on the other server")
    }

    /// Five wrong passwords from one address lock it out, wherever they were sent.
    @Test func theLockOutCountsTheFailuresOfBoth() async throws {
        let cluster = try await Cluster()
        let guesser = ["X-Forwarded-For": "203.0.113.9"]
        let guess = try JSONEncoder().encode(["password": "not the password"])
        for server in [cluster.first, cluster.second, cluster.first, cluster.second, cluster.first] {
            #expect(
                try await server.request("POST", "/api/session", body: guess, headers: guesser).json["code"] as? String == "wrong_password")
        }
        for server in [cluster.second, cluster.first] {
            let locked = try await server.request(
                "POST", "/api/session", body: try JSONEncoder().encode(["password": Self.password]), headers: guesser)
            #expect(locked.status == 429 && locked.json["code"] as? String == "locked_out")
        }
        #expect(try await Cluster.signIn(on: cluster.second, from: "203.0.113.10")["Cookie"] != nil, "another address is not")
    }

    @Test func anAppAllowedThroughOneIsAllowedOnTheOtherAndRemovedFromBoth() async throws {
        let cluster = try await Cluster()
        let added = try await cluster.first.request(
            "POST", "/api/apps", body: Data(#"{"origin":"https://blog.example","name":"My blog"}"#.utf8), headers: cluster.owner)
        #expect(added.status == 201)
        let id = try #require(added.json["id"] as? String)
        let blog = ["Origin": "https://blog.example"]
        let preflight = ["Access-Control-Request-Method": "POST"].merging(blog) { $1 }
        func listed(on server: LiveServer) async throws -> [String] {
            (try await server.get("/api/apps", headers: cluster.owner).json["apps"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                ?? []
        }
        #expect(try await eventually { try await listed(on: cluster.second) == [id] })
        #expect(try await cluster.second.request("OPTIONS", "/api/picker/sessions", headers: preflight).status == 204, "its pages may ask")
        #expect(try await cluster.second.request("DELETE", "/api/apps/\(id)", headers: cluster.owner).status == 200)
        #expect(try await eventually { try await listed(on: cluster.first).isEmpty })
        #expect(try await cluster.first.request("OPTIONS", "/api/picker/sessions", headers: preflight).status == 403)
    }

    /// A picker presented through one server, opened and finished through the other: the long
    /// poll held by the first wakes with the info (the poll asks to wait a minute, the client
    /// gives up after 20 s, so only a wake across servers answers it in time).
    @Test func aPickerFinishedThroughOneWakesTheLongPollOnTheOther() async throws {
        let cluster = try await Cluster()
        let (id, session) = try await cluster.presentPicker()
        let owner = cluster.owner
        let poll = Task { [first = cluster.first] in
            try await first.request("GET", "/api/picker/sessions/\(session)?wait=60", headers: owner, timeout: 20)
        }
        #expect(try await cluster.second.get("/api/picker/sessions/\(session)", headers: owner).json["status"] as? String == "pending")
        try await cluster.choose(id, in: session, through: cluster.second)
        let answered = try await poll.value
        #expect(answered.json["status"] as? String == "finished")
        #expect((answered.json["info"] as? [String: Any])?["originalImage"] is String)
        #expect(
            try await cluster.second.request(
                "POST", "/api/picker/sessions/\(session)/events", body: Data(#"{"event":"cancel"}"#.utf8), headers: owner
            ).status == 409, "a finished picker stays finished on every server")
    }

    /// PostgreSQL stopped and started again under a long poll: the picker's end, made through the
    /// other server once the database is back, still reaches whoever presented it. The caller
    /// polls as the picker's client does: again after each answer, a second later after a 503.
    @Test func aPickersEndIsNotMissedAcrossARestartOfTheDatabase() async throws {
        let postgres = try await ThrowawayPostgres.Dedicated.start()
        let cluster = try await Cluster(postgres: postgres)
        let (id, session) = try await cluster.presentPicker()
        let owner = cluster.owner
        let poll = Task { [first = cluster.first] () async throws -> String? in
            let end = Date().addingTimeInterval(120)
            while Date() < end {
                let reply = try await first.request("GET", "/api/picker/sessions/\(session)?wait=60", headers: owner, timeout: 90)
                if reply.status == 200, let status = reply.json["status"] as? String, status != "pending" { return status }
                if reply.status != 200 { try await Task.sleep(for: .seconds(1)) }
            }
            return nil
        }
        try await postgres.pause()
        try await postgres.resume()
        #expect(
            try await eventually(seconds: 30) {
                try await cluster.second.get("/api/picker/sessions/\(session)", headers: owner).status == 200
            }, "the second server answers again once the database is back")
        try await cluster.choose(id, in: session, through: cluster.second)
        #expect(try await poll.value == "finished")
    }
}
