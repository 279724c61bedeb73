import Foundation
import PhotoLibrary
import PostgreSQL
import Storage
import TestSupport
import Testing

@Suite struct LibrarySchemaTests {
    /// Databases in the field have run the shipped migrations, so their text never changes: one
    /// text now serves both engines, and SQLite's spelling of it must stay what shipped.
    @Test func theShippedSQLiteMigrationIsUnchanged() async throws {
        let digest = try await Executable.run(program: "/usr/bin/sha256sum", [], input: Data(LibrarySchema.sqlite[0].sql.utf8))
        #expect(digest.stdout.hasPrefix("f83a0f1bbe4e1f1caf0baeb1d96f5c0922a265857784b9011496dae90ea17b52"))
        #expect(LibrarySchema.sqlite.map(\.name) == LibrarySchema.postgreSQL.map(\.name))
    }

    /// A library from before the lifetime listings (and, on PostgreSQL, before its own types)
    /// upgrades in place: its rows read as they were written, a camera's impossible date is
    /// ordered by its import, and its views, days and albums are counted from the rows.
    @Test(arguments: Engine.withLocalBlobs) func aLibraryFromBeforeUpgradesInPlace(engine: Engine) async throws {
        let directory = TemporaryDirectory("cameraroll-upgrade")
        let folder = DataFolder(directory.path)
        let old: any SQLDatabase
        var url = ""
        switch engine {
        case .postgreSQL:
            url = try await ThrowawayPostgres.newDatabase()
            old = try await PostgresDatabase(url: url, migrations: Array(LibrarySchema.postgreSQL.prefix(12)))
        default:
            try PrivateFolder.prepare(folder.root)
            old = try SQLiteDatabase(path: folder.database, migrations: Array(LibrarySchema.sqlite.prefix(12)))
        }
        let rows: [(id: String, sortDate: String, importedAt: String, favorite: Int, trashedAt: String?)] = [
            ("a1", "2024-05-01T10:00:00", "2025-01-02T03:04:05.120Z", 1, nil),
            ("a2", "2024-02-30T10:00:00", "2025-01-03T00:00:00Z", 0, nil),
            ("a3", "2023-07-01T08:00:00", "2025-01-01T00:00:00.000Z", 0, "2025-02-01T00:00:00.000Z"),
        ]
        try await old.write { connection throws(StorageError) in
            for (index, row) in rows.enumerated() {
                try connection.run(
                    """
                    INSERT INTO assets (id, media_type, blob_hash, byte_size, format, mime_type, width, height, sort_date, source,
                        imported_at, favorite, has_gps, trashed_at)
                    VALUES (?, 'public.image', ?, 1, 'jpeg', 'image/jpeg', 4, 3, ?, 'import', ?, ?, 1, ?)
                    """, [row.id, String(repeating: String(index), count: 64), row.sortDate, row.importedAt, row.favorite, row.trashedAt])
            }
            try connection.run("INSERT INTO albums (id, title, builtin, created_at) VALUES ('trip', 'Trip', 0, ?)", [rows[0].importedAt])
            try connection.run("INSERT INTO album_assets (album_id, asset_id, added_at) VALUES ('trip', 'a1', ?)", [rows[0].importedAt])
        }
        let database: any SQLDatabase =
            engine == .postgreSQL
            ? try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL)
            : try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite)
        let library = try Library(
            folder: folder, database: database, blobs: try FileBlobStore(root: folder.blobs),
            partialUploads: try FilePartialUploads(root: folder.uploads))

        let page = try await library.catalog.assets(AssetQuery(limit: 1))
        #expect(page.assets.map(\.id) == ["a2"], "an impossible capture date orders by the import")
        let rest = try await library.catalog.assets(AssetQuery(limit: 5, cursor: page.nextCursor))
        #expect(rest.assets.map(\.id) == ["a1"], "a cursor read back from the database pages on")
        let first = try #require(rest.assets.first)
        #expect(first.importDate == rows[0].importedAt && first.isFavorite && first.hasGPS && first.isBrowserPlayable == nil)
        #expect(page.assets.first?.importDate.prefix(19) == "2025-01-03T00:00:00")
        #expect(try await library.catalog.days(AssetQuery()).map { "\($0.day) \($0.count)" } == ["2025-01-03 1", "2024-05-01 1"])
        var trash = AssetQuery()
        trash.collection = .recentlyDeleted
        #expect(try await library.catalog.assets(trash).assets.map(\.trashedDate) == [rows[2].trashedAt])
        #expect(try await library.catalog.days(trash).map { "\($0.day) \($0.count)" } == ["2025-02-01 1"])
        #expect(try await library.catalog.albums().first { $0.id == "trip" }.map { [$0.count, $0.isBuiltIn ? 1 : 0] } == [1, 0])
        guard engine == .postgreSQL else { return }
        let types = try await database.read { connection throws(StorageError) in
            try connection.query(
                """
                SELECT table_name || '.' || column_name AS name, data_type FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name || '.' || column_name IN
                    ('assets.sort_date', 'assets.imported_at', 'assets.favorite', 'albums.builtin', 'uploads.duplicate', 'day_counts.day')
                """
            ).map { row throws(StorageError) in (try row.text("name"), try row.text("data_type")) }
        }
        #expect(
            Dictionary(uniqueKeysWithValues: types) == [
                "assets.sort_date": "timestamp without time zone", "assets.imported_at": "timestamp with time zone",
                "assets.favorite": "boolean", "albums.builtin": "boolean", "uploads.duplicate": "boolean", "day_counts.day": "date",
            ])
    }
}
