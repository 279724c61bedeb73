import Foundation
import PostgreSQL
import Storage
import Synchronization
import TestSupport
import Testing

/// The library's database on a real PostgreSQL 15 (a throwaway cluster of the test process's own).
@Suite struct PostgresDatabaseTests {
    let migrations = [
        Migration(
            "0001-things", "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, size BIGINT, ratio DOUBLE PRECISION)"),
        Migration("0002-counter", "CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (0)"),
    ]

    func open() async throws -> PostgresDatabase {
        try await PostgresDatabase(url: try await ThrowawayPostgres.newDatabase(), migrations: migrations)
    }

    /// A new database whose own default of the server setting `name` is `value` (constants of
    /// the tests, spliced), as its administrator may set one; opened again, so that every
    /// connection starts with it.
    func open(setting name: String, to value: String) async throws -> PostgresDatabase {
        let url = try await ThrowawayPostgres.newDatabase()
        try await PostgresDatabase(url: url, migrations: migrations).write { connection throws(StorageError) in
            try connection.execute(
                "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET \(name) = %L', current_database(), '\(value)'); END $$")
        }
        return try await PostgresDatabase(url: url, migrations: migrations)
    }

    @Test func valuesComeBackAsTheyWentIn() async throws {
        let database = try await open()
        try await database.write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO things (id, name, size, ratio) VALUES (?, ?, ?, ?)", [1, "it's a \"thing\" ? é", Int64(1) << 40, 0.1])
            try connection.run(
                "INSERT INTO things (id, name, size, ratio) VALUES (?, ?, ?, ?)", [2, "nothing", SQLValue.null, SQLValue.null])
        }
        let rows = try await database.read { connection throws(StorageError) in
            try connection.query("SELECT id, name, size, ratio, id = 1 AS first, '?' AS mark FROM things ORDER BY id")
        }
        #expect(rows.count == 2)
        #expect(try rows[0].integer("id") == 1)
        #expect(try rows[0].text("name") == "it's a \"thing\" ? é", "a ? inside an argument is the argument's")
        #expect(try rows[0].integer("size") == 1 << 40)
        #expect(try rows[0].optionalReal("ratio") == 0.1)
        #expect(try rows[0].flag("first") && !rows[1].flag("first"), "a boolean reads as a flag, as SQLite's 0 and 1 do")
        #expect(try rows[0].text("mark") == "?", "a ? inside a literal is not a parameter")
        #expect(try rows[1].optionalInteger("size") == nil && rows[1].optionalReal("ratio") == nil)
        #expect(throws: StorageError.self) { try rows[1].integer("size") }
    }

    /// A row is its values in the result's order, the names read once for all rows: a scalar is
    /// the first column whatever its name, and a name said twice is its last column, as it was
    /// when a row was a dictionary filled in order. On both engines alike.
    @Test(arguments: [false, true]) func rowsKeepTheResultsOrderAndShareItsNames(onPostgreSQL: Bool) async throws {
        let folder = TemporaryDirectory()
        let database: any SQLDatabase =
            onPostgreSQL ? try await open() : try SQLiteDatabase(path: folder.file("o.sqlite"), migrations: [])
        let (scalar, rows) = try await database.read { connection throws(StorageError) in
            (
                try connection.scalar("SELECT 'z' AS z, 'a' AS a"),
                try connection.query("SELECT 1 AS n, 2 AS twice, 3 AS twice UNION ALL SELECT 4, 5, 6")
            )
        }
        #expect(scalar == .text("z"))
        #expect(try rows.map { try [$0.integer("n"), $0.integer("twice")] } == [[1, 3], [4, 6]])
        #expect(rows[0].columns === rows[1].columns && rows[0].columns.names == ["n", "twice", "twice"])
    }

    @Test func momentsReadAsTheLibraryWritesThemInAnyZone() async throws {
        // A server or database in another zone still gives UTC: the connection asks for it.
        let database = try await open(setting: "TimeZone", to: "Asia/Kolkata")
        let row = try await database.read { connection throws(StorageError) in
            try connection.query(
                """
                SELECT TIMESTAMPTZ '2026-12-03 23:49:21.12+02' AS fraction, TIMESTAMPTZ '2026-01-01 00:00:00Z' AS whole,
                    CAST(? AS timestamptz) AS written, TIMESTAMP '2024-05-01 12:00:00' AS clock, DATE '2024-05-01' AS day,
                    current_setting('TimeZone') AS zone
                """, ["2026-12-03T23:49:21.123Z"])[0]
        }
        #expect(try row.text("zone") == "UTC")
        #expect(try row.text("fraction") == "2026-12-03T21:49:21.120Z")
        #expect(try row.text("whole") == "2026-01-01T00:00:00.000Z")
        #expect(try row.text("written") == "2026-12-03T23:49:21.123Z", "a moment reads back as it was written")
        #expect(try row.text("clock") == "2024-05-01T12:00:00", "a clock's time has no zone")
        #expect(try row.text("day") == "2024-05-01")
        for unreadable in ["TIMESTAMPTZ 'infinity'", "TIMESTAMP '2024-05-01 12:00:00 BC'", "TIMESTAMP '12024-05-01 12:00:00'"] {
            await #expect(throws: StorageError.self, "\(unreadable)") {
                try await database.read { connection throws(StorageError) in try connection.query("SELECT \(unreadable) AS moment") }
            }
        }
    }

    @Test func aCachedCommitSkipsTheWALFlushForItsTransactionAlone() async throws {
        // The tests' cluster commits without waiting for its WAL everywhere; this database does.
        let database = try await open(setting: "synchronous_commit", to: "on")
        let before = try await database.write { connection throws(StorageError) in try connection.scalar("SHOW synchronous_commit") }
        #expect(before == .text("on"))
        let during = try await database.write(.cached) { connection throws(StorageError) in
            try connection.run("INSERT INTO things (id, name) VALUES (?, ?)", [1, "cached"])
            return try connection.scalar("SHOW synchronous_commit")
        }
        #expect(during == .text("off"))
        let after = try await database.write { connection throws(StorageError) in try connection.scalar("SHOW synchronous_commit") }
        #expect(after == .text("on"))
        let count = try await database.read { connection throws(StorageError) in try connection.scalar("SELECT count(*) FROM things") }
        #expect(count == .integer(1))
    }

    @Test func aThrowingWriteCommitsNothingAndTheConnectionGoesOn() async throws {
        let database = try await open()
        await #expect(throws: StorageError.self) {
            try await database.write { connection throws(StorageError) in
                try connection.run("INSERT INTO things (id, name) VALUES (?, ?)", [1, "one"])
                try connection.run("INSERT INTO things (id, name) VALUES (?, ?)", [2, "one"])
            }
        }
        let count = try await database.read { connection throws(StorageError) in try connection.scalar("SELECT count(*) FROM things") }
        #expect(count == .integer(0))
        do {
            _ = try await database.write { connection throws(StorageError) in try connection.run("INSERT INTO things (id) VALUES (1)") }
            Issue.record("a NOT NULL column took nothing")
        } catch {
            #expect(error.code == .constraint)
            #expect(error.detail?.contains("null value") == true, "the engine's words are the detail, the message is ours")
            #expect(!error.message.contains("things"))
        }
        _ = try await database.write { connection throws(StorageError) in
            try connection.run("INSERT INTO things (id, name) VALUES (1, 'one')")
        }
        #expect(try await database.integrityProblems().isEmpty)
    }

    @Test func migrationsRunOnceWhicheverServerStartsFirst() async throws {
        let url = try await ThrowawayPostgres.newDatabase()
        let migrations = migrations
        // Servers started together: the advisory lock lets one migrate, the others find it done.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await PostgresDatabase(url: url, migrations: migrations) } }
            try await group.waitForAll()
        }
        let database = try await PostgresDatabase(url: url, migrations: migrations)
        let applied = try await database.read { connection throws(StorageError) in
            try connection.query("SELECT name FROM schema_migrations ORDER BY position").map { row throws(StorageError) in
                try row.text("name")
            }
        }
        #expect(applied == ["0001-things", "0002-counter"])
        await #expect(throws: StorageError.self) {
            _ = try await PostgresDatabase(url: url, migrations: [Migration("0001-something-else", "SELECT 1")])
        }
    }

    /// Writers run at once on PostgreSQL; those that lock the same name take turns, so a
    /// read-then-write under the lock loses no update.
    @Test func writersThatLockTheSameNameTakeTurns() async throws {
        let database = try await open()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await database.write { connection throws(StorageError) in
                        try connection.lock("the counter")
                        guard case .integer(let value) = try connection.scalar("SELECT value FROM counter") else {
                            throw StorageError(.corruptRow, "no counter")
                        }
                        try connection.run("UPDATE counter SET value = ?", [value + 1])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(
            try await database.read { connection throws(StorageError) in try connection.scalar("SELECT value FROM counter") }
                == .integer(40))
    }

    @Test func aServerThatIsNotThereIsUnavailable() async throws {
        do {
            _ = try await PostgresDatabase(url: "postgresql://cameraroll@127.0.0.1:1/postgres", migrations: migrations)
            Issue.record("connected to nothing")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message == "The database cannot be reached.")
            #expect(error.detail?.contains("refused") == true, "libpq's own words are the detail: \(error.detail ?? "")")
        }
    }

    /// A connection the server dropped (a restart, a network cut) fails its transaction as an
    /// outage, and the next transaction on its thread connects again.
    @Test func aDroppedConnectionIsMadeAgain() async throws {
        var options = PostgresDatabase.Options()
        options.writers = 1
        let url = try await ThrowawayPostgres.newDatabase()
        let database = try await PostgresDatabase(url: url, migrations: migrations, options: options)
        let pid = try await database.write { connection throws(StorageError) in try connection.scalar("SELECT pg_backend_pid()") }
        guard case .integer(let backend) = pid else { throw StorageError(.corruptRow, "no pid") }
        let killed = try await Executable.run(program: "/usr/bin/psql", [url, "-qAtc", "SELECT pg_terminate_backend(\(backend))"])
        #expect(killed.stdout.hasPrefix("t"))
        var outcomes: [String] = []
        for _ in 0..<2 {
            do {
                _ = try await database.write { connection throws(StorageError) in try connection.run("UPDATE counter SET value = value + 1")
                }
                outcomes.append("ok")
            } catch {
                outcomes.append(error.code.description)
            }
        }
        #expect(outcomes == ["unavailable", "ok"] || outcomes == ["ok", "ok"])
        let after = try await database.write { connection throws(StorageError) in try connection.scalar("SELECT pg_backend_pid()") }
        #expect(after != pid)
    }

    /// A restart nobody saw (the library idle through it) costs no transaction: each connection
    /// the server closed while idle is found closed, its last words read and then its end, and
    /// made again before its next transaction.
    @Test func aRestartWhileIdleFailsNoTransaction() async throws {
        let server = try await ThrowawayPostgres.Dedicated.start()
        var options = PostgresDatabase.Options()
        (options.writers, options.readers) = (1, 1)
        let database = try await PostgresDatabase(
            url: try await ThrowawayPostgres.newDatabase(on: server.url), migrations: migrations, options: options)
        let before = try await database.read { connection throws(StorageError) in try connection.scalar("SELECT pg_backend_pid()") }
        _ = try await database.write { connection throws(StorageError) in try connection.run("UPDATE counter SET value = value + 1") }
        try await server.pause()
        try await server.resume()
        let after = try await database.read { connection throws(StorageError) in try connection.scalar("SELECT pg_backend_pid()") }
        #expect(after != before, "a connection of the new server")
        let written = try await database.write { connection throws(StorageError) in
            try connection.run("UPDATE counter SET value = value + 1")
        }
        #expect(written == 1)
    }

    /// What a transaction announces reaches every listener when it commits, never when it rolls
    /// back; a listener whose connection the server dropped connects again and says so.
    @Test func announcementsComeWithTheCommitAndAListenerResumes() async throws {
        let url = try await ThrowawayPostgres.newDatabase()
        let database = try await PostgresDatabase(url: url, migrations: migrations)
        let other = try await PostgresDatabase(url: url, migrations: migrations)
        var heard = try #require(other.announcements()).makeAsyncIterator()
        #expect(await heard.next() == .resumed, "listening")
        _ = try? await database.write { connection throws(StorageError) in
            try connection.announce("rolled back")
            throw StorageError(.database, "no")
        }
        try await database.write { connection throws(StorageError) in try connection.announce("committed") }
        #expect(await heard.next() == .topic("committed"), "the rolled-back one never came")

        let killed = try await Executable.run(
            program: "/usr/bin/psql", [url, "-qAtc", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"])
        #expect(killed.stdout.hasPrefix("t"), "\(killed.stdout) \(killed.stderr)")
        #expect(await heard.next() == .resumed)
        try await database.write { connection throws(StorageError) in try connection.announce("after") }
        #expect(await heard.next() == .topic("after"))
    }
}
