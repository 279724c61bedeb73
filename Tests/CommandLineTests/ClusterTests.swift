import ChildProcess
import Foundation
import S3
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two `cameraroll serve` processes over one PostgreSQL database and one radosgw bucket, with
/// haproxy in front: one library whichever instance answers, and an instance killed with
/// `kill -9` at the worst moments loses nothing that was acknowledged and leaves nothing behind
/// but what collection removes. After each fault the invariants of RELIABILITY.md hold across
/// the cluster: the other instance answers through the balancer, every acknowledged upload is
/// there with its bytes, and the revived instance's work folder is empty.
@Suite(.serialized) struct ClusterTests {
    static let password = "the cluster owner's password"

    struct Stack {
        let cluster: ThrowawayCluster
        let database: String
        let s3: [String: String]
        let bucket: S3Client
        /// The owner's cookie and CSRF token, signed in through the balancer.
        let owner: [String: String]
    }

    /// `ceph`: an object store of the test's own (which it may freeze), else the tests' shared one.
    private func stack(ceph: ThrowawayCeph.Dedicated? = nil) async throws -> Stack {
        let database = try await ThrowawayPostgres.newDatabase()
        let gateway: ThrowawayCeph.Gateway
        if let ceph { gateway = ceph.gateway } else { gateway = try await ThrowawayCeph.start() }
        let name = ThrowawayCeph.newBucketName()
        let s3 = ThrowawayCluster.environment(gateway)
        let bucket = S3Client(bucket: try S3Bucket.from(url: "s3://\(name)", environment: s3))
        try await offThePool { try bucket.createBucket() }
        let folder = TemporaryDirectory("cameraroll-cluster-owner")
        let set = try await Executable.run(["--data", folder.path, "--database", database, "passwd"], input: Self.password + "\n")
        #expect(set.status == 0, "\(set.stderr)")
        let cluster = try await ThrowawayCluster.start(database: database, bucket: name, gateway: gateway)
        let signedIn = try await HTTP.send(
            "POST", "\(cluster.balancer)/api/session", body: try JSONEncoder().encode(["password": Self.password]))
        let cookie = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init), "\(signedIn.status)")
        let csrf = try #require(signedIn.json["csrfToken"] as? String)
        return Stack(cluster: cluster, database: database, s3: s3, bucket: bucket, owner: ["Cookie": cookie, "X-CSRF-Token": csrf])
    }

    private func upload(_ file: String, to base: String, _ stack: Stack) async throws -> HTTP.Reply {
        try await HTTP.send(
            "POST", "\(base)/api/assets", body: try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))),
            headers: stack.owner.merging(["X-Filename": (file as NSString).lastPathComponent]) { $1 })
    }

    private func listed(_ base: String, _ stack: Stack) async throws -> [String] {
        let reply = try await HTTP.send("GET", "\(base)/api/assets", headers: stack.owner)
        return (reply.json["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }

    /// The invariants after a fault: through the balancer every acknowledged upload is listed and
    /// served byte for byte, and nothing else is listed.
    private func holds(_ acknowledged: [String: String], _ stack: Stack) async throws {
        for _ in 0..<4 {
            #expect(Set(try await listed(stack.cluster.balancer, stack)) == Set(acknowledged.keys), "whichever instance answers")
        }
        for (id, file) in acknowledged {
            let original = try await HTTP.send("GET", "\(stack.cluster.balancer)/media/\(id)/original", headers: stack.owner)
            #expect(original.body == (try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))))
        }
    }

    /// What a process's crash left in an instance's `tmp/` goes when it starts again: only the
    /// new process's empty work folder and its lock are there.
    private func workFolderIsClean(_ name: String, _ stack: Stack) throws {
        let tmp = "\(stack.cluster.dataFolder(name))/tmp"
        let entries = try FileManager.default.contentsOfDirectory(atPath: tmp)
        let folders = entries.filter { !$0.hasSuffix(".lock") }
        #expect(folders.count == 1, "\(entries)")
        for folder in folders {
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(tmp)/\(folder)").isEmpty, "\(folder)")
        }
    }

    @Test func twoInstancesBehindHAProxyAreOneLibrary() async throws {
        let stack = try await stack()
        defer { Task { try? await stack.cluster.stop() } }
        var acknowledged: [String: String] = [:]
        for file in ["photos/exifsamples__Canon_40D.jpg", "photos/recurser__Landscape_1.jpg"] {
            let reply = try await upload(file, to: stack.cluster.balancer, stack)
            #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
            acknowledged[try #require(reply.json["id"] as? String)] = file
        }
        try await holds(acknowledged, stack)
        let id = try #require(acknowledged.keys.first)
        var validators: Set<String> = []
        for base in stack.cluster.instances.values {
            #expect(try await HTTP.send("GET", "\(base)/api/session", headers: stack.owner).json["signedIn"] as? Bool == true)
            let thumbnail = try await HTTP.send("GET", "\(base)/media/\(id)/thumbnail?size=256", headers: stack.owner)
            validators.insert(try #require(thumbnail.header("ETag")))
        }
        #expect(validators.count == 1, "one validator for one recipe, on every instance")
    }

    /// `kill -9` of the instance an upload's body is streaming into: the client's upload fails,
    /// nothing is listed, the other instance goes on answering through the balancer, and the
    /// killed one sweeps the partial body when it starts again.
    @Test func anInstanceKilledDuringABodyLosesNothing() async throws {
        let stack = try await stack()
        defer { Task { try? await stack.cluster.stop() } }
        let kept = try await upload("photos/exifsamples__Canon_40D.jpg", to: stack.cluster.balancer, stack)
        let keptID = try #require(kept.json["id"] as? String)

        let file = "videos/androidx-media__pixel7_videoOnly_cleaned.mp4"
        let curl = try SpawnedProcess(
            executable: "/usr/bin/curl",
            arguments: ["--silent", "--noproxy", "*", "--limit-rate", "200k", "--data-binary", "@\(Corpus.path(file))", "-o", "/dev/null"]
                + stack.owner.flatMap { ["-H", "\($0.key): \($0.value)"] } + ["\(stack.cluster.instances["a"]!)/api/assets"],
            environment: ProcessInfo.processInfo.environment)
        #expect(try await eventually { try partialBodyBytes(in: "\(stack.cluster.dataFolder("a"))/tmp") > 0 }, "the body is arriving")
        try await stack.cluster.kill("a")
        let status = await curl.termination.status
        #expect(status != 0, "the client saw its upload fail")

        try await holds([keptID: "photos/exifsamples__Canon_40D.jpg"], stack)
        let after = try await upload("photos/recurser__Landscape_1.jpg", to: stack.cluster.balancer, stack)
        #expect(after.status == 201, "the balancer sends new work to the instance that lives")
        try await stack.cluster.revive("a")
        try workFolderIsClean("a", stack)
        try await holds(
            [keptID: "photos/exifsamples__Canon_40D.jpg", try #require(after.json["id"] as? String): "photos/recurser__Landscape_1.jpg"],
            stack)
    }

    /// An instance that dies after the original is in the bucket and before its row is
    /// committed: the client got no answer, nothing is listed, and the original in the bucket
    /// is an orphan; the same bytes uploaded again make one asset over that one object.
    @Test func aCrashBetweenThePutAndTheCommitLeavesOnlyAnOrphan() async throws {
        let stack = try await stack()
        defer { Task { try? await stack.cluster.stop() } }
        try await stack.cluster.revive("a", environment: ["CAMERAROLL_CRASH_AT": "after-blob-commit"])
        let file = "photos/recurser__Landscape_1.jpg"
        await #expect(throws: (any Error).self, "the instance died before it answered") {
            try await upload(file, to: stack.cluster.instances["a"]!, stack)
        }
        #expect(try await offThePool { try stack.bucket.list(prefix: "blobs/") }.count == 1, "the original reached the bucket")
        try await holds([:], stack)

        try await stack.cluster.revive("a")
        try workFolderIsClean("a", stack)
        let again = try await upload(file, to: stack.cluster.instances["a"]!, stack)
        #expect(again.status == 201)
        try await holds([try #require(again.json["id"] as? String): file], stack)
        #expect(try await offThePool { try stack.bucket.list(prefix: "blobs/") }.count == 1, "one object for one content")
    }

    /// `kill -9` of an instance while it waits on the object store for an upload (radosgw frozen,
    /// as when an OSD is gone): nothing was acknowledged and nothing lands, the other instance
    /// serves what was stored before, and the killed one starts again clean.
    @Test func anInstanceKilledDuringItsCallToTheObjectStoreLosesNothing() async throws {
        let ceph = try await ThrowawayCeph.Dedicated.start()
        let stack = try await stack(ceph: ceph)
        defer { Task { try? await stack.cluster.stop() } }
        let kept = try await upload("photos/exifsamples__Canon_40D.jpg", to: stack.cluster.balancer, stack)
        let keptID = try #require(kept.json["id"] as? String)
        try await ceph.freeze()
        let pending = Task { try? await upload("photos/recurser__Landscape_1.jpg", to: stack.cluster.instances["a"]!, stack) }
        // The body is in and staged, and the instance waits on the store: no work file grows any more.
        #expect(try await eventually { try partialBodyBytes(in: "\(stack.cluster.dataFolder("a"))/tmp") > 0 })
        try await Task.sleep(for: .seconds(1))
        try await stack.cluster.kill("a")
        #expect(await pending.value == nil, "the client got no answer")
        try await ceph.thaw()
        try await holds([keptID: "photos/exifsamples__Canon_40D.jpg"], stack)
        #expect(try await offThePool { try stack.bucket.list(prefix: "blobs/") }.count == 1, "the second original never landed")
        try await stack.cluster.revive("a")
        try workFolderIsClean("a", stack)
    }

    /// Bytes of request bodies being received in a work folder.
    private func partialBodyBytes(in tmp: String) throws -> Int {
        var total = 0
        for case let path as String in FileManager.default.enumerator(atPath: tmp) ?? NSEnumerator() {
            let attributes = try? FileManager.default.attributesOfItem(atPath: "\(tmp)/\(path)")
            if attributes?[.type] as? FileAttributeType == .typeRegular, !path.hasSuffix(".lock") {
                total += (attributes?[.size] as? Int) ?? 0
            }
        }
        return total
    }

}

/// Plain HTTP requests from the tests, with the answer's head and body.
enum HTTP {
    typealias Reply = FetchedReply

    /// One session for every request: each URLSession holds a libcurl multi handle and threads
    /// of FoundationNetworking's, and a session a request never invalidates is never freed.
    private static let session: URLSession = {
        let settings = URLSessionConfiguration.ephemeral
        settings.connectionProxyDictionary = [:]
        return URLSession(configuration: settings)
    }()

    static func send(_ method: String, _ url: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 60
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await Reply(request, on: session)
    }
}
