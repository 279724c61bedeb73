import Storage

/// The library's migrations, append-only: a shipped entry is never edited or removed.
enum Schema {
    static let migrations: [Migration] = [
        Migration(
            "0001-assets-and-albums",
            """
            CREATE TABLE assets (
                id TEXT PRIMARY KEY,
                media_type TEXT NOT NULL CHECK (media_type IN ('public.image', 'public.movie')),
                blob_hash TEXT NOT NULL UNIQUE CHECK (length(blob_hash) = 64),
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
                edit TEXT
            );
            CREATE INDEX assets_by_date ON assets (sort_date DESC, id DESC);
            CREATE TABLE albums (
                id TEXT PRIMARY KEY,
                title TEXT NOT NULL,
                builtin INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL
            );
            INSERT INTO albums (id, title, builtin, created_at)
                VALUES ('cameraRoll', 'Camera Roll', 1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
            CREATE TABLE album_assets (
                album_id TEXT NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
                asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
                added_at TEXT NOT NULL,
                PRIMARY KEY (album_id, asset_id)
            );
            CREATE INDEX album_assets_by_asset ON album_assets (asset_id);
            """)
    ]
}
