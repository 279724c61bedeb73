import Foundation

/// A single-node Ceph cluster with radosgw of this test process's own (`scripts/throwaway-ceph`),
/// started when a test first asks for a bucket and stopped by the script's watcher once the
/// process ends. Each test gets a bucket of its own.
public enum ThrowawayCeph {
    /// radosgw's endpoint and an S3 user's keys.
    public struct Gateway: Sendable {
        public let endpoint: String
        public let accessKeyID: String
        public let secretAccessKey: String
    }

    private static let gateway = Task { () throws -> Gateway in try await Dedicated.start().gateway }

    public static func start() async throws -> Gateway {
        try await gateway.value
    }

    /// A cluster for one test alone, whose radosgw it may freeze (an outage that hangs, as an
    /// OSD gone does) without disturbing the others.
    public struct Dedicated: Sendable {
        public let folder: String
        public let gateway: Gateway

        public static func start() async throws -> Dedicated {
            let started = try await script(["start", String(getpid())])
            let words = started.split(whereSeparator: \.isWhitespace).map(String.init)
            guard words.count == 4 else { throw Failure(said: started) }
            return Dedicated(folder: words[0], gateway: Gateway(endpoint: words[1], accessKeyID: words[2], secretAccessKey: words[3]))
        }

        /// radosgw takes connections and answers none.
        public func freeze() async throws { _ = try await Self.script(["freeze", folder]) }

        public func thaw() async throws { _ = try await Self.script(["thaw", folder]) }

        private static func script(_ arguments: [String]) async throws -> String {
            let script = Corpus.packageRoot.appendingPathComponent("scripts/throwaway-ceph").path
            let ran = try await Executable.run(program: "/bin/bash", [script] + arguments)
            guard ran.status == 0 else { throw Failure(said: ran.stderr) }
            return ran.stdout
        }
    }

    /// A name for a new bucket (the test makes it through S3).
    public static func newBucketName() -> String {
        "test-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
    }

    struct Failure: Error, CustomStringConvertible {
        let said: String
        var description: String { "The tests' Ceph could not start: \(said)" }
    }
}
