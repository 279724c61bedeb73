import Foundation

/// Two `cameraroll serve` instances over one database and bucket, each with a data folder of its
/// own, and haproxy in front (`scripts/throwaway-cluster`), stopped by the script's watcher when
/// the test process ends if the test has not stopped them.
public struct ThrowawayCluster: Sendable {
    public let folder: String
    /// haproxy's URL, and each instance's own, by name ("a", "b").
    public let balancer: String
    public let instances: [String: String]

    /// The owner's password must be set (`passwd --database`) before the instances can start.
    public static func start(database: String, bucket: String, gateway: ThrowawayCeph.Gateway) async throws -> ThrowawayCluster {
        let started = try await script(["start", String(getpid()), Executable.path, database, bucket], environment: environment(gateway))
        let words = started.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 4 else { throw Failure(said: started) }
        return ThrowawayCluster(folder: words[0], balancer: words[1], instances: ["a": words[2], "b": words[3]])
    }

    /// What the instances need to reach the bucket.
    public static func environment(_ gateway: ThrowawayCeph.Gateway) -> [String: String] {
        [
            "AWS_ENDPOINT_URL": gateway.endpoint, "AWS_ACCESS_KEY_ID": gateway.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": gateway.secretAccessKey,
            "AWS_REGION": "us-east-1",
        ]
    }

    /// The instance's data folder.
    public func dataFolder(_ name: String) -> String { "\(folder)/\(name)" }

    /// What the instance wrote to its standard error.
    public func log(_ name: String) -> String { (try? String(contentsOfFile: "\(folder)/\(name).log", encoding: .utf8)) ?? "" }

    /// `kill -9` of the instance.
    public func kill(_ name: String) async throws { _ = try await Self.script(["kill", folder, name]) }

    /// Starts the instance again on its port, with `environment` added to the cluster's.
    public func revive(_ name: String, environment: [String: String] = [:]) async throws {
        _ = try await Self.script(["revive", folder, name] + environment.map { "\($0.key)=\($0.value)" })
    }

    public func stop() async throws { _ = try await Self.script(["stop", folder]) }

    private static func script(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let path = Corpus.packageRoot.appendingPathComponent("scripts/throwaway-cluster").path
        let ran = try await Executable.run(program: "/bin/bash", [path] + arguments, environment: environment)
        guard ran.status == 0 else { throw Failure(said: ran.stderr) }
        return ran.stdout
    }

    struct Failure: Error, CustomStringConvertible {
        let said: String
        var description: String { "The tests' cluster failed: \(said)" }
    }
}
