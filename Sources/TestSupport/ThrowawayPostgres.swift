import Foundation

/// A PostgreSQL cluster of this test process's own (`scripts/throwaway-postgres`), started when a
/// test first asks for a database and stopped by the script's watcher once the process ends.
/// Each test gets a database of its own, so tests running at once never see each other's rows.
public enum ThrowawayPostgres {
    /// The cluster's URL, for the `postgres` database; started once per process.
    private static let cluster = Task { () throws -> String in try await Dedicated.start().url }

    /// A cluster for one test alone, which it may stop and start (an outage) without disturbing
    /// the others.
    public struct Dedicated: Sendable {
        public let folder: String
        /// For its `postgres` database.
        public let url: String

        public static func start() async throws -> Dedicated {
            let started = try await script(["start", String(getpid())], "start PostgreSQL")
            let words = started.split(whereSeparator: \.isWhitespace)
            guard words.count == 2 else { throw Failure(what: "start PostgreSQL", said: started) }
            return Dedicated(folder: String(words[0]), url: String(words[1]))
        }

        /// Stops the server, its data kept: every connection to it breaks.
        public func pause() async throws { _ = try await Self.script(["pause", folder], "stop") }

        public func resume() async throws { _ = try await Self.script(["resume", folder], "start again") }

        private static func script(_ arguments: [String], _ what: String) async throws -> String {
            let script = Corpus.packageRoot.appendingPathComponent("scripts/throwaway-postgres").path
            let ran = try await Executable.run(program: "/bin/bash", [script] + arguments)
            guard ran.status == 0 else { throw Failure(what: what, said: ran.stderr) }
            return ran.stdout
        }
    }

    /// A new, empty database, by URL: on this process's cluster, or on `server` (a `postgres` URL).
    public static func newDatabase(on given: String? = nil) async throws -> String {
        let server: String
        if let given { server = given } else { server = try await cluster.value }
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let made = try await Executable.run(program: "/usr/bin/psql", [server, "-qc", "CREATE DATABASE \(name)"])
        guard made.status == 0 else { throw Failure(what: "create a database", said: made.stderr) }
        return server.dropLast("postgres".count) + name
    }

    struct Failure: Error, CustomStringConvertible {
        let what: String
        let said: String
        var description: String { "The tests' PostgreSQL could not \(what): \(said)" }
    }
}
