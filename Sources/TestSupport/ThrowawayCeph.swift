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

    private static let gateway = Task { () throws -> Gateway in
        let script = Corpus.packageRoot.appendingPathComponent("scripts/throwaway-ceph").path
        let started = try await Executable.run(program: "/bin/bash", [script, "start", String(getpid())])
        let words = started.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        guard started.status == 0, words.count == 4 else { throw Failure(said: started.stderr) }
        return Gateway(endpoint: words[1], accessKeyID: words[2], secretAccessKey: words[3])
    }

    public static func start() async throws -> Gateway {
        try await gateway.value
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
