public import Storage

/// The library's migrations for each engine, append-only: a shipped entry is never edited or
/// removed. Both engines get one text with each engine's spelling of a few types, so their
/// tables, columns and constraints stay the same. SQLite keeps flags as 0/1 integers and moments
/// as ISO 8601 text; PostgreSQL has had its own types since 0013 (`postgreSQLTypes`), which read
/// back as SQLite's do (`ColumnType`), so SQL written for both says `NOT unsaved`, not
/// `unsaved = 0`, and `date(sort_date)`, not its first ten characters.
public enum LibrarySchema {
    public static let sqlite = migrations(
        Types(dialect: .sqlite, bigInteger: "INTEGER", real: "REAL", now: "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"))
    public static let postgreSQL = migrations(
        Types(
            dialect: .postgreSQL, bigInteger: "BIGINT", real: "DOUBLE PRECISION",
            now: "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"))

    /// What the engines spell differently.
    private struct Types {
        var dialect: SQLDialect
        var bigInteger: String
        var real: String
        /// The current time as ISO 8601 text, in SQL.
        var now: String
    }

    private static func migrations(_ types: Types) -> [Migration] {
        [
            Migration(
                "0001-assets-and-albums",
                """
                CREATE TABLE assets (
                    id TEXT PRIMARY KEY,
                    media_type TEXT NOT NULL CHECK (media_type IN ('public.image', 'public.movie')),
                    blob_hash TEXT NOT NULL UNIQUE CHECK (length(blob_hash) = 64),
                    byte_size \(types.bigInteger) NOT NULL CHECK (byte_size > 0),
                    format TEXT NOT NULL,
                    mime_type TEXT NOT NULL,
                    original_filename TEXT,
                    width INTEGER NOT NULL CHECK (width > 0),
                    height INTEGER NOT NULL CHECK (height > 0),
                    duration \(types.real),
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
                    VALUES ('cameraRoll', 'Camera Roll', 1, \(types.now));
                CREATE TABLE album_assets (
                    album_id TEXT NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
                    asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
                    added_at TEXT NOT NULL,
                    PRIMARY KEY (album_id, asset_id)
                );
                CREATE INDEX album_assets_by_asset ON album_assets (asset_id);
                """),
            // What every server of a library must agree on, stored once (see Library.sharedRecord).
            Migration("0002-shared-records", "CREATE TABLE shared_records (name TEXT PRIMARY KEY, value TEXT NOT NULL)"),
            // Sign-in across servers (see Credentials.SharedCredentials): sessions signed out
            // before they expire, and each server's counted failures.
            Migration(
                "0003-sign-in-state",
                """
                CREATE TABLE ended_sessions (id TEXT PRIMARY KEY, expires \(types.bigInteger) NOT NULL);
                CREATE TABLE sign_in_failures (
                    server TEXT NOT NULL,
                    address TEXT NOT NULL,
                    network TEXT NOT NULL,
                    failed_at \(types.real) NOT NULL
                );
                CREATE INDEX sign_in_failures_by_network ON sign_in_failures (network, failed_at);
                """),
            // Pickers in progress, which any server may be asked about (see CameraRollServer's StoredPickerSessions).
            Migration(
                "0004-picker-sessions",
                """
                CREATE TABLE picker_sessions (
                    id TEXT PRIMARY KEY,
                    session TEXT NOT NULL,
                    creator TEXT,
                    client TEXT,
                    last_used \(types.real) NOT NULL
                )
                """),
            // The renditions servers sharing a library make for each other (see RenditionQueue).
            Migration(
                "0005-rendition-jobs",
                """
                CREATE TABLE rendition_jobs (
                    blob_hash TEXT NOT NULL,
                    derivative TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
                    attempt INTEGER NOT NULL DEFAULT 0,
                    worker TEXT,
                    lease_until \(types.real),
                    progress \(types.real) NOT NULL DEFAULT 0,
                    output_hash TEXT,
                    error_code TEXT,
                    error_message TEXT,
                    queued_at \(types.real) NOT NULL,
                    PRIMARY KEY (blob_hash, derivative)
                );
                CREATE INDEX rendition_jobs_by_state ON rendition_jobs (state, queued_at);
                """),
            // Resumable uploads (see Library+Uploads): how far each got, and the pieces kept of it.
            // A NULL length is one the client will tell with its last piece (a recording streamed
            // while it is shot). An upload expires `uploadExpiry` after `updated_at`, its last piece.
            Migration(
                "0006-uploads",
                """
                CREATE TABLE uploads (
                    id TEXT PRIMARY KEY,
                    length \(types.bigInteger) CHECK (length > 0),
                    received \(types.bigInteger) NOT NULL DEFAULT 0 CHECK (received >= 0 AND (length IS NULL OR received <= length)),
                    original_filename TEXT,
                    source TEXT NOT NULL,
                    save_to_camera_roll INTEGER NOT NULL,
                    client TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('receiving', 'importing', 'done', 'refused')),
                    asset_id TEXT,
                    duplicate INTEGER NOT NULL DEFAULT 0,
                    error_code TEXT,
                    error_message TEXT,
                    updated_at \(types.real) NOT NULL
                );
                CREATE INDEX uploads_by_client ON uploads (client, state);
                CREATE INDEX uploads_by_age ON uploads (updated_at);
                CREATE TABLE upload_pieces (
                    upload_id TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
                    start \(types.bigInteger) NOT NULL,
                    size \(types.bigInteger) NOT NULL CHECK (size > 0),
                    name TEXT NOT NULL,
                    PRIMARY KEY (upload_id, start)
                );
                """),
            // How much of an upload is on disk: pieces in between are left in the machine's cache
            // (Options.uploadCheckpoint). `cached_in` names the boot of the machine whose cache
            // holds the rest, NULL when nothing is; after another boot the upload goes back to
            // `synced`. `synced_at` is when the last fsynced piece came.
            Migration(
                "0007-upload-checkpoints",
                """
                ALTER TABLE uploads ADD COLUMN synced \(types.bigInteger) NOT NULL DEFAULT 0;
                ALTER TABLE uploads ADD COLUMN synced_at \(types.real) NOT NULL DEFAULT 0;
                ALTER TABLE uploads ADD COLUMN cached_in TEXT;
                UPDATE uploads SET synced = received, synced_at = updated_at;
                """),
            // Live Photos: the content identifier an iPhone gives both halves, and on the movie
            // half the still it belongs to (`LivePhoto`). A paired movie is in no listing: it is
            // the still's motion.
            Migration(
                "0008-live-photos",
                """
                ALTER TABLE assets ADD COLUMN content_identifier TEXT;
                ALTER TABLE assets ADD COLUMN live_photo_of TEXT REFERENCES assets (id);
                CREATE INDEX assets_by_content_identifier ON assets (content_identifier);
                CREATE INDEX assets_by_live_photo ON assets (live_photo_of);
                """),
            // What a picker's filter asks beyond the media type (`AssetKind`): screenshots, and the
            // frame rate a movie was recorded at (slow motion). Screenshots already in a library
            // are known by their file's name; its movies' frame rates are not known.
            Migration(
                "0009-screenshots-and-frame-rates",
                """
                ALTER TABLE assets ADD COLUMN is_screenshot INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE assets ADD COLUMN capture_frame_rate \(types.real);
                UPDATE assets SET is_screenshot = 1 WHERE media_type = 'public.image'
                    AND (lower(original_filename) LIKE 'screenshot%' OR lower(original_filename) LIKE 'screen shot%');
                """),
            // The Photos app: an album's cover, what the viewer's info panel shows of a photo (the
            // lens, the exposure, where it was taken), and the orders of Recently Added and
            // Recently Deleted.
            Migration(
                "0010-photos-app",
                """
                ALTER TABLE albums ADD COLUMN cover_asset_id TEXT REFERENCES assets (id) ON DELETE SET NULL;
                ALTER TABLE assets ADD COLUMN lens_model TEXT;
                ALTER TABLE assets ADD COLUMN f_number \(types.real);
                ALTER TABLE assets ADD COLUMN exposure_time \(types.real);
                ALTER TABLE assets ADD COLUMN iso INTEGER;
                ALTER TABLE assets ADD COLUMN focal_length \(types.real);
                ALTER TABLE assets ADD COLUMN latitude \(types.real);
                ALTER TABLE assets ADD COLUMN longitude \(types.real);
                CREATE INDEX assets_by_import ON assets (imported_at DESC, id DESC);
                CREATE INDEX assets_by_trash ON assets (trashed_at DESC, id DESC);
                """),
            // Downloads of a selection as one archive (see Library+Downloads): the files in the
            // archive's order, space-separated ids; a row lasts until `expires`, in seconds since 1970.
            Migration(
                "0011-downloads",
                """
                CREATE TABLE downloads (
                    token TEXT PRIMARY KEY,
                    filename TEXT NOT NULL,
                    asset_ids TEXT NOT NULL,
                    expires \(types.real) NOT NULL
                );
                CREATE INDEX downloads_by_expiry ON downloads (expires);
                """),
            // A timeline's days (`Library.days`): their counts are read from this index alone, the
            // conditions of the library's views in it, instead of from every row.
            Migration(
                "0012-timeline-days",
                "CREATE INDEX assets_by_day ON assets ((substr(sort_date, 1, 10)), trashed_at, live_photo_of, unsaved)"),
            Migration("0013-postgresql-types", postgreSQLTypes(types.dialect)),
            Migration("0014-lifetime-listings", lifetimeListings(types.dialect)),
            // Blobs being stored or removed (`BlobClaims`), so that no transaction stays open while
            // the blob store works. `claimed_at` is in seconds since 1970.
            Migration(
                "0015-blob-claims",
                """
                CREATE TABLE blob_claims (
                    token TEXT PRIMARY KEY,
                    blob_hash TEXT NOT NULL,
                    purpose TEXT NOT NULL CHECK (purpose IN ('store', 'remove')),
                    claimed_at \(types.real) NOT NULL
                );
                CREATE INDEX blob_claims_by_hash ON blob_claims (blob_hash, purpose);
                """),
            // Whether a finished rendition names a blob, asked before each removal (`claimRemoval`).
            Migration("0016-renditions-by-output", "CREATE INDEX rendition_jobs_by_output ON rendition_jobs (output_hash)"),
            Migration("0017-owners", ownedLibraries(types.dialect), rebuildsTables: true),
            Migration("0018-owner-usage", ownerUsage(types.dialect)),
            Migration("0019-shared-albums", sharedAlbums),
            Migration("0020-partners", partners),
            Migration("0021-share-links", shareLinks(types.dialect)),
            Migration("0022-partners-in-timeline", partnersInTimeline(types.dialect)),
            Migration("0023-places", places(types.dialect)),
            Migration("0024-search-terms", searchTerms(types.dialect)),
            Migration("0025-picture-words", pictureWords(types.dialect)),
        ]
    }
}
