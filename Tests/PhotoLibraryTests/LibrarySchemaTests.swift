import Digests
import Foundation
import PhotoLibrary
import PostgreSQL
import Storage
import TestSupport
import Testing

@Suite struct LibrarySchemaTests {
    /// Databases in the field have run the shipped migrations, so their texts never change,
    /// though several are written by helpers that later code uses too (the listings' views, the
    /// day counts): each shipped text is pinned by its SHA-256, on both engines. A migration
    /// added is pinned here when it ships.
    @Test func theShippedMigrationsAreUnchanged() throws {
        let shipped: [(name: String, sqlite: String, postgreSQL: String)] = [
            (
                "0001-assets-and-albums", "f83a0f1bbe4e1f1caf0baeb1d96f5c0922a265857784b9011496dae90ea17b52",
                "9f2a2e7db52290cae16f06b6d455f0d80249a0051043e1f1a60642d93e0ff10e"
            ),
            (
                "0002-shared-records", "57805c43a0b10bb6174bc43f7d3e373137c95d4cb9564644c17ff08a294d86ed",
                "57805c43a0b10bb6174bc43f7d3e373137c95d4cb9564644c17ff08a294d86ed"
            ),
            (
                "0003-sign-in-state", "d588929df57e090393befea67d5a6a6ff4c115f60da0308d6e225d83f23e21d1",
                "e6730972d42b9bc769300653e57f279e1c4668007405ed573689093b2d484cc2"
            ),
            (
                "0004-picker-sessions", "67ea6751d6b6351f8c54d0af8ad040c24aaf6ee9eedb72f5060afcfa1c09cdae",
                "0d79efe96cbcf3d9872f0144f85a9eb407067cc76474814916885946756f4831"
            ),
            (
                "0005-rendition-jobs", "74e3f8749f156a62cd2ed816782d136e26b8f91def32038eeea15a2243583fb2",
                "efce28d8731f4ce367ea2059ec608673a05bc6abf4b553ef880c931ba9a7f2b1"
            ),
            (
                "0006-uploads", "d3091dfcacd58a6462fbf462feef59a013b850d929ee3125b16a2b8e7e671791",
                "4d583f9e25aba31daf9b9f254db9d0d8d8b51fba9b363aff3df2a170701f4d05"
            ),
            (
                "0007-upload-checkpoints", "b87d56ba5cb92314986ffb98544259164b835d5a0ad94f51d511cff7d86f2cc0",
                "c2767a56e11f85a6691332c696e15d7d178ebef85c109de54cb3b134a20d81e9"
            ),
            (
                "0008-live-photos", "cde4bc65cc22d213602da9232cf71a5405212e8946aff092fb7c551771a32719",
                "cde4bc65cc22d213602da9232cf71a5405212e8946aff092fb7c551771a32719"
            ),
            (
                "0009-screenshots-and-frame-rates", "32055baffb6e5ed45f315c12184a4e6c05ef3e08a1d35e1200266f99b57de42b",
                "280fd660e8dc659dc07411b4a8d41c6a888d9a5ad4061a515fab5e82a612d819"
            ),
            (
                "0010-photos-app", "4535d88a307d0a8aa0e9bdbd45e789b502cdcf99fd7df9f1ec920ecea76ab022",
                "ca356e554157ac8461d7642a7d64ced92deaed741d766a0d33fa7e1032a26da3"
            ),
            (
                "0011-downloads", "44d9f9832e9b073552ae08ca8c3962b5e3903511fbfeecd04b04e68c6a1e964f",
                "b27da7e4abc09d4e4e9bb97df51bb3df7857d079cb83a954769957113efa1a55"
            ),
            (
                "0012-timeline-days", "aca82db5bfeab8928aa76a754b59fab432c02ea1ebca367cbefd2702dca3c053",
                "aca82db5bfeab8928aa76a754b59fab432c02ea1ebca367cbefd2702dca3c053"
            ),
            (
                "0013-postgresql-types", "ae5e00fb43024a4b64f6af19c8aa2579d55da0204a52f3f17fd3f252b815857a",
                "21f0523bbb8723ea6e6146e7ebc56ef0892318474ea4b699d92fd967d34487e9"
            ),
            (
                "0014-lifetime-listings", "726c79442d10e38e85b4f6f51fec92b9125f25403674701edee975e65bc11ff6",
                "596374207df01c69ac192559dad4e16858dbd01723d83123d1c1f3c270fc1925"
            ),
            (
                "0015-blob-claims", "5384dcf80ef716edfa41c5ad9294cfb6398b2c8ec7237c253d4db795f80eadfa",
                "9de1408403b3a6a2256e29a949ce2b6629ef59cbbfe1acabe0d7702c430980b3"
            ),
            (
                "0016-renditions-by-output", "9161b24ba2c8eb799bc46630437098b7f901545b6274c23ef5cd579af4f2514e",
                "9161b24ba2c8eb799bc46630437098b7f901545b6274c23ef5cd579af4f2514e"
            ),
            (
                "0017-owners", "cf0cf3181da748eb750fc5f15eaa752fefac31275cc9e0f966cddac98dcd539d",
                "2880ccf1dd64f527c45ffeeb286a9c79dfcf069399da6d848799acb366718768"
            ),
            (
                "0018-owner-usage", "608c8b659fe4945cb60b6f7fbbfbca16bce597d3c42776049fafeb3fbf4cc14b",
                "691394344e4a2a13e15ad0adffecc91385b917da92ddc8140e229c8ae06b2597"
            ),
            (
                "0019-shared-albums", "7c0152537274574772efc90513ce6d08375f1a1627d8f8af10f262e2a61b0f39",
                "7c0152537274574772efc90513ce6d08375f1a1627d8f8af10f262e2a61b0f39"
            ),
            (
                "0020-partners", "b0b0009f9665b846f33184797a9713b2669b719e707d21d3cc69c79b7017e238",
                "b0b0009f9665b846f33184797a9713b2669b719e707d21d3cc69c79b7017e238"
            ),
            (
                "0021-share-links", "034116333aad310aec8f5736553c91b73579c33705c2951de171a2ba8f75c2f8",
                "57627271c872bee9302d81815387c6e3ffe19595498da376fc433251c5bb0793"
            ),
            (
                "0022-partners-in-timeline", "d9c7379e0ec2e0f7e2407889a7abc4ad0b25467e9d6a1c3100a1059c552b1b9d",
                "bdea1d44742510b833f71afb81dbf26e4752a1cfe8991e2611041286c54f6537"
            ),
            (
                "0023-places", "065ad288bd39fee8c0c3711f1dc257202f3ffaeb724cbd55e75c239c14f079b0",
                "7f1f5e402015c7eed7ae6f67115d0b80e3502944e6f762bd595d5f13605b807f"
            ),
            (
                "0024-search-terms", "d66372dd16f7d2529b55af4c95b94d850fdebd9bc1f20e226d4af9f627d540e1",
                "e8aef149fdfb8b5742e723b0139f25b5ae72f3768c08b08961f01c3448f314a0"
            ),
            (
                "0025-picture-words", "4e3b5c2d00919b9e8d9d7f1c237f1bb177d652283bcb3e1cf74cfe706c3dd2bd",
                "538378efd29ac7b7b4604e4d24970cb872ca11e41ff2706405b14eec4f47b0e3"
            ),
        ]
        let digest = { (migration: Migration) in Hex.text(Digest.sha256(Array(migration.sql.utf8))) }
        try #require(LibrarySchema.sqlite.map(\.name) == LibrarySchema.postgreSQL.map(\.name))
        #expect(LibrarySchema.sqlite.count == shipped.count, "a migration added is pinned when it ships")
        for (index, pinned) in shipped.enumerated() where index < LibrarySchema.sqlite.count {
            #expect(LibrarySchema.sqlite[index].name == pinned.name)
            #expect(digest(LibrarySchema.sqlite[index]) == pinned.sqlite, "\(pinned.name) on SQLite")
            #expect(digest(LibrarySchema.postgreSQL[index]) == pinned.postgreSQL, "\(pinned.name) on PostgreSQL")
        }
    }

    /// A library from before the lifetime listings (and, on PostgreSQL, before its own types, and
    /// on both before people) upgrades in place: its rows read as they were written, a camera's
    /// impossible date is ordered by its import, its views, days and albums are counted from the
    /// rows, everything is the first admin's, and nothing that refers to an asset loses it (on
    /// SQLite the table is built anew).
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
                        imported_at, favorite, has_gps, trashed_at, original_filename)
                    VALUES (?, 'public.image', ?, 1, 'jpeg', 'image/jpeg', 4, 3, ?, 'import', ?, ?, 1, ?, ?)
                    """,
                    [
                        row.id, String(repeating: String(index), count: 64), row.sortDate, row.importedAt, row.favorite, row.trashedAt,
                        "beach-\(row.id).jpg",
                    ])
            }
            // The movie of a1's Live Photo.
            try connection.run(
                """
                INSERT INTO assets (id, media_type, blob_hash, byte_size, format, mime_type, width, height, sort_date, source,
                    imported_at, content_identifier, live_photo_of)
                VALUES ('m1', 'public.movie', ?, 1, 'mov', 'video/quicktime', 4, 3, ?, 'import', ?, 'ID-1', 'a1')
                """, [String(repeating: "9", count: 64), rows[0].sortDate, rows[0].importedAt])
            try connection.run(
                "INSERT INTO albums (id, title, builtin, created_at, cover_asset_id) VALUES ('trip', 'Trip', 0, ?, 'a1')",
                [rows[0].importedAt])
            try connection.run("INSERT INTO album_assets (album_id, asset_id, added_at) VALUES ('trip', 'a1', ?)", [rows[0].importedAt])
        }
        let database: any SQLDatabase =
            engine == .postgreSQL
            ? try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL)
            : try SQLiteDatabase(path: folder.database, migrations: LibrarySchema.sqlite)
        let library = try Library(
            folder: folder, database: database, blobs: try FileBlobStore(root: folder.blobs),
            partialUploads: try FilePartialUploads(root: folder.uploads))

        let page = try await library.catalog.assets(AssetQuery(limit: 1), owner: .first)
        #expect(page.assets.map(\.id) == ["a2"], "an impossible capture date orders by the import")
        let rest = try await library.catalog.assets(AssetQuery(limit: 5, cursor: page.nextCursor), owner: .first)
        #expect(rest.assets.map(\.id) == ["a1"], "a cursor read back from the database pages on")
        let first = try #require(rest.assets.first)
        #expect(first.importDate == rows[0].importedAt && first.isFavorite && first.hasGPS && first.isBrowserPlayable == nil)
        #expect(page.assets.first?.importDate.prefix(19) == "2025-01-03T00:00:00")
        #expect(
            try await library.catalog.days(AssetQuery(), owner: .first).map { "\($0.day) \($0.count)" } == ["2025-01-03 1", "2024-05-01 1"])
        var trash = AssetQuery()
        trash.collection = .recentlyDeleted
        #expect(try await library.catalog.assets(trash, owner: .first).assets.map(\.trashedDate) == [rows[2].trashedAt])
        #expect(try await library.catalog.days(trash, owner: .first).map { "\($0.day) \($0.count)" } == ["2025-02-01 1"])
        let trip = try #require(try await library.catalog.albums(owner: .first).first { $0.id == "trip" })
        #expect(trip.count == 1 && !trip.isBuiltIn && trip.coverAssetID == "a1", "the entry and the cover are kept")
        var search = AssetQuery()
        search.search = "beach-a1"
        #expect(try await library.catalog.assets(search, owner: .first).assets.map(\.id) == ["a1"], "the words are still found")
        let kept = try await database.read { connection throws(StorageError) in
            (
                try connection.query("SELECT DISTINCT owner_id FROM assets").map { row throws(StorageError) in try row.integer("owner_id")
                },
                try connection.query("SELECT live_photo_of FROM assets WHERE id = 'm1'").first?.optionalText("live_photo_of")
            )
        }
        #expect(kept.0 == [1], "everything is the first admin's")
        #expect(try await library.catalog.usage(owner: .first) == 4, "the bytes each holds are counted from the rows, the trash's too")
        #expect(kept.1 == "a1", "the movie is still its still's")
        // The same bytes may be two people's assets, not twice one person's.
        let copy = """
            INSERT INTO assets (id, media_type, blob_hash, byte_size, format, mime_type, width, height, sort_date, source, imported_at,
                owner_id)
            SELECT ?, media_type, blob_hash, byte_size, format, mime_type, width, height, sort_date, source, imported_at, ?
            FROM assets WHERE id = 'a1'
            """
        _ = try await database.write { connection throws(StorageError) in try connection.run(copy, ["b1", 2]) }
        await #expect(throws: StorageError.self) {
            try await database.write { connection throws(StorageError) in try connection.run(copy, ["c1", 1]) }
        }
        #expect(
            try await library.catalog.days(AssetQuery(), owner: .first).map(\.count).reduce(0, +) == 2,
            "another's asset is not in one's days")
        #expect(try await library.catalog.usage(owner: Owner(id: 2)) == 1)
        #expect(try await library.catalog.usage(owner: .first) == 4, "the same bytes count for each who keeps them")
        guard engine == .postgreSQL else { return }
        let types = try await database.read { connection throws(StorageError) in
            try connection.query(
                """
                SELECT table_name || '.' || column_name AS name, data_type FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name || '.' || column_name IN
                    ('assets.sort_date', 'assets.imported_at', 'assets.favorite', 'albums.builtin', 'uploads.duplicate', 'day_counts.day',
                    'assets.owner_id')
                """
            ).map { row throws(StorageError) in (try row.text("name"), try row.text("data_type")) }
        }
        #expect(
            Dictionary(uniqueKeysWithValues: types) == [
                "assets.sort_date": "timestamp without time zone", "assets.imported_at": "timestamp with time zone",
                "assets.favorite": "boolean", "albums.builtin": "boolean", "uploads.duplicate": "boolean", "day_counts.day": "date",
                "assets.owner_id": "integer",
            ])
    }
}
