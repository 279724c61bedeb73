import Storage

extension LibrarySchema {
    /// Every asset, album, upload and download belongs to a person (`owner_id`, the id the
    /// credentials give them; everything already there is the first admin's, 1), and a picker
    /// session to whoever takes it. Identical bytes are one blob but may be two people's assets:
    /// `blob_hash` is unique per owner. The views' indexes lead with the owner, so that each
    /// person's pages are a range of them at any size of the family's library, and the days are
    /// counted per owner (`DayCounts.byOwnerAndListing`).
    ///
    /// SQLite changes a constraint only by building the table anew: its triggers go first (a
    /// rename reads every trigger again), the rows are copied with their `search_rowid` (so the
    /// words' FTS5 rows stay theirs) and the references of `album_assets`, `albums` and the Live
    /// Photos' movies, which name the table, find the new one (`rebuildsTables`).
    static func ownedLibraries(_ dialect: SQLDialect) -> String {
        let indexes = AssetCollection.views.map { view in
            "CREATE INDEX \(view.index) ON assets (owner_id, \(view.collection.orderColumn) DESC, id DESC) WHERE "
                + view.collection.membership(of: nil).joined(separator: " AND ") + ";"
        }
        let assets = dialect == .sqlite ? sqliteAssetsRebuilt : postgreSQLAssetsOwned
        let day = dialect == .sqlite ? "TEXT" : "DATE"
        let triggers =
            dialect == .sqlite
            ? sqliteTriggers(.byOwnerAndListing) + sqliteSearchTriggers(.namesAndCamera)
            : postgreSQLTriggers(.byOwnerAndListing, replacing: true)
        return """
            \(assets)
            CREATE UNIQUE INDEX assets_by_blob ON assets (blob_hash, owner_id);
            CREATE INDEX assets_by_content_identifier ON assets (owner_id, content_identifier) WHERE content_identifier IS NOT NULL;
            \(indexes.joined(separator: "\n"))
            ALTER TABLE albums ADD COLUMN owner_id INTEGER NOT NULL DEFAULT 1;
            CREATE INDEX albums_by_owner ON albums (owner_id, title);
            ALTER TABLE uploads ADD COLUMN owner_id INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE downloads ADD COLUMN owner_id INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE picker_sessions ADD COLUMN owner_id INTEGER;
            DROP TABLE day_counts;
            CREATE TABLE day_counts (
                owner_id INTEGER NOT NULL,
                listing TEXT NOT NULL,
                day \(day) NOT NULL,
                media_type TEXT NOT NULL,
                items INTEGER NOT NULL,
                PRIMARY KEY (owner_id, listing, day, media_type)
            )\(dialect == .sqlite ? " WITHOUT ROWID" : "");
            \(everyDayCounted(.byOwnerAndListing))
            \(triggers)
            """
    }

    /// Every column of `assets` as migrations 0001 to 0014 made it on SQLite, in order.
    private static let sqliteAssetColumns = """
        id, media_type, blob_hash, byte_size, format, mime_type, original_filename, width, height, duration, orientation, \
        capture_date, sort_date, camera_make, camera_model, has_gps, browser_playable, source, unsaved, imported_at, favorite, \
        trashed_at, edit, content_identifier, live_photo_of, is_screenshot, capture_frame_rate, lens_model, f_number, \
        exposure_time, iso, focal_length, latitude, longitude, search_rowid
        """

    /// `assets` built anew with `owner_id` and without the unique `blob_hash`, its rows copied.
    private static var sqliteAssetsRebuilt: String {
        let triggers = [
            "assets_counted", "assets_uncounted", "assets_recounted", "assets_recounted_in_albums", "assets_uncounted_in_albums",
            "album_entries_counted", "album_entries_uncounted", "albums_uncounted", "assets_searchable", "assets_unsearchable",
            "assets_searchable_again",
        ]
        return """
            \(triggers.map { "DROP TRIGGER \($0);" }.joined(separator: "\n"))
            CREATE TABLE owned_assets (
                id TEXT PRIMARY KEY,
                media_type TEXT NOT NULL CHECK (media_type IN ('public.image', 'public.movie')),
                blob_hash TEXT NOT NULL CHECK (length(blob_hash) = 64),
                byte_size INTEGER NOT NULL CHECK (byte_size > 0),
                format TEXT NOT NULL,
                mime_type TEXT NOT NULL,
                original_filename TEXT,
                width INTEGER NOT NULL CHECK (width > 0),
                height INTEGER NOT NULL CHECK (height > 0),
                duration REAL,
                orientation INTEGER NOT NULL DEFAULT 1,
                capture_date TEXT,
                sort_date TEXT NOT NULL,
                camera_make TEXT,
                camera_model TEXT,
                has_gps INTEGER NOT NULL DEFAULT 0,
                browser_playable INTEGER,
                source TEXT NOT NULL CHECK (source IN ('camera', 'upload', 'import')),
                unsaved INTEGER NOT NULL DEFAULT 0,
                imported_at TEXT NOT NULL,
                favorite INTEGER NOT NULL DEFAULT 0,
                trashed_at TEXT,
                edit TEXT,
                content_identifier TEXT,
                live_photo_of TEXT REFERENCES assets (id),
                is_screenshot INTEGER NOT NULL DEFAULT 0,
                capture_frame_rate REAL,
                lens_model TEXT,
                f_number REAL,
                exposure_time REAL,
                iso INTEGER,
                focal_length REAL,
                latitude REAL,
                longitude REAL,
                search_rowid INTEGER,
                owner_id INTEGER NOT NULL CHECK (owner_id > 0)
            );
            INSERT INTO owned_assets (\(sqliteAssetColumns), owner_id) SELECT \(sqliteAssetColumns), 1 FROM assets;
            DROP TABLE assets;
            ALTER TABLE owned_assets RENAME TO assets;
            CREATE UNIQUE INDEX assets_by_search_rowid ON assets (search_rowid);
            CREATE INDEX assets_by_live_photo ON assets (live_photo_of) WHERE live_photo_of IS NOT NULL;
            """
    }

    /// PostgreSQL adds the column (the default fills the rows there, then goes: every insert
    /// names its owner) and drops the constraint in place; the indexes that gain the owner go.
    private static var postgreSQLAssetsOwned: String {
        let views = AssetCollection.views.map { "DROP INDEX \($0.index);" }
        return """
            ALTER TABLE assets ADD COLUMN owner_id INTEGER NOT NULL DEFAULT 1 CHECK (owner_id > 0);
            ALTER TABLE assets ALTER COLUMN owner_id DROP DEFAULT;
            ALTER TABLE assets DROP CONSTRAINT assets_blob_hash_key;
            DROP INDEX assets_by_content_identifier;
            \(views.joined(separator: "\n"))
            """
    }
}
