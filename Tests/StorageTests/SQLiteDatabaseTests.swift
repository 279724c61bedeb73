import Foundation
import Storage
import TestSupport
import Testing

@Suite struct SQLiteDatabaseTests {
    let directory = TemporaryDirectory()
    let migrations = [
        Migration("create-things", "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)"),
        Migration("add-colour", "ALTER TABLE things ADD COLUMN colour TEXT"),
    ]

    @Test func opensInWALWithFullSyncAndForeignKeys() async throws {
        let database = try SQLiteDatabase(path: directory.file("a.sqlite"), migrations: migrations)
        let settings = try await database.write { connection throws(StorageError) in
            (
                try connection.scalar("PRAGMA journal_mode"), try connection.scalar("PRAGMA synchronous"),
                try connection.scalar("PRAGMA foreign_keys")
            )
        }
        #expect(settings.0 == .text("wal"))
        #expect(settings.1 == .integer(2))
        #expect(settings.2 == .integer(1))
    }

    @Test func statisticsOfATableTenTimesItsSizeAreMadeAgainAtOpen() async throws {
        let path = directory.file("s.sqlite")
        let counted = { (database: SQLiteDatabase) async throws -> SQLValue in
            try await database.read { connection throws(StorageError) in
                try connection.scalar("SELECT CAST(stat AS INTEGER) FROM sqlite_stat1 WHERE idx = 'sqlite_autoindex_things_1'")
            }
        }
        let small = try SQLiteDatabase(path: path, migrations: migrations)
        try await small.write { connection throws(StorageError) in
            try connection.run("INSERT INTO things (name) VALUES ('one')")
            try connection.execute("ANALYZE")
        }
        #expect(try await counted(small) == .integer(1))
        // Rows written where no statistics are looked at (another process, a copy).
        _ = try await small.write { connection throws(StorageError) in
            try connection.run(
                """
                WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
                INSERT INTO things (name) SELECT 'n' || i FROM n
                """)
        }
        #expect(try await counted(SQLiteDatabase(path: path, migrations: migrations)) == .integer(30))
        _ = try await small.write { connection throws(StorageError) in try connection.run("DELETE FROM things WHERE id > 5") }
        #expect(try await counted(SQLiteDatabase(path: path, migrations: migrations)) == .integer(30), "a third is not a tenth")
        _ = try await small.write { connection throws(StorageError) in try connection.run("DELETE FROM things WHERE id > 2") }
        #expect(try await counted(SQLiteDatabase(path: path, migrations: migrations)) == .integer(2))
    }

    @Test func aCachedCommitSkipsTheSyncForItselfAlone() async throws {
        let database = try SQLiteDatabase(path: directory.file("c.sqlite"), migrations: migrations)
        let during = try await database.write(.cached) { connection throws(StorageError) in
            try connection.run("INSERT INTO things (name) VALUES (?)", ["cached"])
            return try connection.scalar("PRAGMA synchronous")
        }
        #expect(during == .integer(1), "NORMAL: the log is written, not fsynced")
        let after = try await database.write { connection throws(StorageError) in try connection.scalar("PRAGMA synchronous") }
        #expect(after == .integer(2), "the next write is full again")
        await #expect(throws: StorageError.self) {
            try await database.write(.cached) { connection throws(StorageError) in
                try connection.run("INSERT INTO things (name) VALUES (?)", ["cached"])
            }
        }
        let afterFailure = try await database.write { connection throws(StorageError) in
            (try connection.scalar("PRAGMA synchronous"), try connection.scalar("SELECT count(*) FROM things"))
        }
        #expect(
            afterFailure.0 == .integer(2) && afterFailure.1 == .integer(1),
            "a cached write that failed leaves full sync and nothing of itself")
    }

    @Test func migrationsRunOnceInOrder() async throws {
        let path = directory.file("b.sqlite")
        _ = try SQLiteDatabase(path: path, migrations: Array(migrations.prefix(1)))
        let database = try SQLiteDatabase(path: path, migrations: migrations)
        _ = try SQLiteDatabase(path: path, migrations: migrations)
        let names = try await database.read { connection throws(StorageError) in
            try connection.query("SELECT name FROM schema_migrations ORDER BY rowid").map { row throws(StorageError) in try row.text("name")
            }
        }
        #expect(names == ["create-things", "add-colour"])
        _ = try await database.write { connection throws(StorageError) in
            try connection.run("INSERT INTO things (name, colour) VALUES (?, ?)", ["a", "red"])
        }
    }

    /// A table others refer to, rebuilt as SQLite changes a constraint: the rows that refer to
    /// it stay as they were, and foreign keys are on again afterwards.
    @Test func aRebuiltTableKeepsTheRowsReferringToIt() async throws {
        let path = directory.file("r.sqlite")
        let parents = [
            Migration(
                "parents-and-children",
                """
                CREATE TABLE parents (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE children (id INTEGER PRIMARY KEY, parent TEXT REFERENCES parents (id) ON DELETE CASCADE,
                    favourite TEXT REFERENCES parents (id) ON DELETE SET NULL);
                INSERT INTO parents VALUES ('a', 'Anna'), ('b', 'Ben');
                INSERT INTO children (parent, favourite) VALUES ('a', 'b'), ('b', 'a');
                """)
        ]
        _ = try SQLiteDatabase(path: path, migrations: parents)
        let rebuild = Migration(
            "names-may-repeat",
            """
            CREATE TABLE parents_new (id TEXT PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO parents_new SELECT * FROM parents;
            DROP TABLE parents;
            ALTER TABLE parents_new RENAME TO parents;
            """, rebuildsTables: true)
        let database = try SQLiteDatabase(path: path, migrations: parents + [rebuild])
        let (children, foreignKeys) = try await database.write { connection throws(StorageError) in
            try connection.run("INSERT INTO parents VALUES ('c', 'Anna')")
            return (
                try connection.query("SELECT parent, favourite FROM children ORDER BY id").map { row throws(StorageError) in
                    "\(try row.text("parent"))>\(try row.text("favourite"))"
                }, try connection.scalar("PRAGMA foreign_keys")
            )
        }
        #expect(children == ["a>b", "b>a"], "no child deleted, no favourite emptied")
        #expect(foreignKeys == .integer(1))
    }

    /// A rebuild that would leave a reference to nothing is refused whole.
    @Test func aRebuildThatBreaksAReferenceChangesNothing() async throws {
        let path = directory.file("q.sqlite")
        let parents = [
            Migration(
                "parents-and-children",
                """
                CREATE TABLE parents (id TEXT PRIMARY KEY);
                CREATE TABLE children (id INTEGER PRIMARY KEY, parent TEXT REFERENCES parents (id));
                INSERT INTO parents VALUES ('a'), ('b');
                INSERT INTO children (parent) VALUES ('a'), ('b');
                """)
        ]
        _ = try SQLiteDatabase(path: path, migrations: parents)
        let losing = Migration(
            "lose-b",
            """
            CREATE TABLE parents_new (id TEXT PRIMARY KEY);
            INSERT INTO parents_new SELECT * FROM parents WHERE id = 'a';
            DROP TABLE parents;
            ALTER TABLE parents_new RENAME TO parents;
            """, rebuildsTables: true)
        #expect(throws: StorageError.self) { _ = try SQLiteDatabase(path: path, migrations: parents + [losing]) }
        let database = try SQLiteDatabase(path: path, migrations: parents)
        let count = try await database.read { connection throws(StorageError) in try connection.scalar("SELECT count(*) FROM parents") }
        #expect(count == .integer(2))
    }

    @Test func aDatabaseFromAnotherVersionIsRefused() async throws {
        let path = directory.file("c.sqlite")
        _ = try SQLiteDatabase(path: path, migrations: migrations)
        #expect(throws: StorageError.self) {
            _ = try SQLiteDatabase(path: path, migrations: [Migration("something-else", "SELECT 1")])
        }
    }

    @Test func aThrowingWriteRollsBack() async throws {
        let database = try SQLiteDatabase(path: directory.file("d.sqlite"), migrations: migrations)
        await #expect(throws: StorageError.self) {
            try await database.write { connection throws(StorageError) in
                try connection.run("INSERT INTO things (name) VALUES (?)", ["kept?"])
                try connection.run("INSERT INTO things (name) VALUES (?)", ["kept?"])
            }
        }
        let count = try await database.read { connection throws(StorageError) in try connection.scalar("SELECT count(*) FROM things") }
        #expect(count == .integer(0))
        #expect(try await database.integrityProblems().isEmpty)
    }

    @Test func constraintViolationsHaveTheirOwnCode() async throws {
        let database = try SQLiteDatabase(path: directory.file("e.sqlite"), migrations: migrations)
        do {
            try await database.write { connection throws(StorageError) in
                try connection.run("INSERT INTO things (name) VALUES (?)", ["x"])
                try connection.run("INSERT INTO things (name) VALUES (?)", ["x"])
            }
            Issue.record("a duplicate was inserted")
        } catch {
            #expect(error.code == .constraint)
            #expect(!error.message.contains("'x'"))
        }
    }

    @Test func readersSeeOnlyCommittedData() async throws {
        let database = try SQLiteDatabase(path: directory.file("f.sqlite"), migrations: migrations)
        let inserted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The write stays open, its row inserted, while a reader looks.
        async let writing: Void = database.write { connection throws(StorageError) in
            try connection.run("INSERT INTO things (name) VALUES (?)", ["one"])
            inserted.signal()
            release.wait()
        }
        try await offThePool { inserted.wait() }
        let during = try await database.read { reader throws(StorageError) in try reader.scalar("SELECT count(*) FROM things") }
        #expect(during == .integer(0))
        release.signal()
        try await writing
        let after = try await database.read { reader throws(StorageError) in try reader.scalar("SELECT count(*) FROM things") }
        #expect(after == .integer(1))
    }

    @Test func valuesRoundTrip() async throws {
        let database = try SQLiteDatabase(
            path: directory.file("g.sqlite"), migrations: [Migration("t", "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")])
        let row = try await database.write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?)", [Int64.max, 2.5, "é\u{0}x", SQLValue.blob([0, 1, 255]), String?.none])
            return try connection.query("SELECT * FROM t")[0]
        }
        #expect(try row.integer("i") == Int.max)
        #expect(try row.optionalReal("r") == 2.5)
        #expect(try row.text("s") == "é")
        #expect(row["b"] == .blob([0, 1, 255]))
        #expect(row["n"] == .null)
    }

    @Test func strictReadsRefuseWhatTheSchemaDoesNotAllow() async throws {
        let database = try SQLiteDatabase(
            path: directory.file("h.sqlite"), migrations: [Migration("t", "CREATE TABLE t (i, s, f, n)")])
        let row = try await database.write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO t VALUES (?, ?, ?, ?)", [SQLValue.text("seven"), SQLValue.integer(7), SQLValue.integer(2), String?.none])
            return try connection.query("SELECT * FROM t")[0]
        }
        #expect(throws: StorageError.self) { try row.integer("i") }
        #expect(throws: StorageError.self) { try row.text("s") }
        #expect(throws: StorageError.self) { try row.flag("f") }
        #expect(throws: StorageError.self) { try row.text("n") }
        #expect(throws: StorageError.self) { try row.optionalText("missing") }
        #expect(try row.optionalText("n") == nil && row.text("i") == "seven")
        #expect(try row.optionalReal("s") == 7)
    }
}
