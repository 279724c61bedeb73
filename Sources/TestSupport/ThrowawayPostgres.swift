import Foundation

/// A PostgreSQL cluster of this test process's own (`scripts/throwaway-postgres`), started when a
/// test first asks for a database and stopped by the script's watcher once the process ends.
/// Each test gets a database of its own, so tests running at once never see each other's rows.
public enum ThrowawayPostgres {
    /// The cluster's URL, for the `postgres` database; started once per process.
    private static let cluster = Task { () throws -> String in
        let script = Corpus.packageRoot.appendingPathComponent("scripts/throwaway-postgres").path
        let started = try await Executable.run(program: "/bin/bash", [script, "start", String(getpid())])
        let words = started.stdout.split(whereSeparator: \.isWhitespace)
        guard started.status == 0, words.count == 2 else { throw Failure(what: "start PostgreSQL", said: started.stderr) }
        return String(words[1])
    }

    /// A new, empty database, by URL.
    public static func newDatabase() async throws -> String {
        let server = try await cluster.value
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
