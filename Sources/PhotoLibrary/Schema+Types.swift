import Storage

extension LibrarySchema {
    /// PostgreSQL's own types for what SQLite keeps as ISO 8601 text and 0/1 integers, the rows
    /// already there converted: an import's, a trashing's, an album's and an entry's moments as
    /// `timestamptz`, a sort date (the camera's clock, no zone) as `timestamp`, flags as
    /// `boolean`. A capture date stays text: it is the camera's words, with an offset or
    /// without one. Ids stay text: most are 32 hex digits, but the Camera Roll's is
    /// `cameraRoll` and clients name ids in URLs. SQLite keeps its own types, so this is a
    /// comment there. The indexes on the old texts go first (the next migration replaces them),
    /// the one on the first ten characters of the sort date could not be rebuilt on a
    /// timestamp.
    static func postgreSQLTypes(_ dialect: SQLDialect) -> String {
        guard dialect == .postgreSQL else { return "-- SQLite keeps moments as ISO 8601 text and flags as 0 and 1." }
        let flags: [(table: String, column: String, byDefault: Bool)] = [
            ("assets", "has_gps", true), ("assets", "unsaved", true), ("assets", "favorite", true), ("assets", "is_screenshot", true),
            ("assets", "browser_playable", false), ("albums", "builtin", true), ("uploads", "save_to_camera_roll", false),
            ("uploads", "duplicate", true),
        ]
        let moments: [(table: String, column: String, type: String)] = [
            ("assets", "imported_at", "timestamptz"), ("assets", "trashed_at", "timestamptz"), ("albums", "created_at", "timestamptz"),
            ("album_assets", "added_at", "timestamptz"),
        ]
        var changes: [String: [String]] = [:]
        for flag in flags {
            let type = "ALTER COLUMN \(flag.column) TYPE boolean USING \(flag.column) <> 0"
            changes[flag.table, default: []] +=
                flag.byDefault
                ? ["ALTER COLUMN \(flag.column) DROP DEFAULT", type, "ALTER COLUMN \(flag.column) SET DEFAULT false"] : [type]
        }
        for moment in moments {
            changes[moment.table, default: []].append(
                "ALTER COLUMN \(moment.column) TYPE \(moment.type) USING CAST(\(moment.column) AS \(moment.type))")
        }
        // A sort date the camera's clock got wrong (30 February, hour 25), which SQLite kept as
        // text, is ordered by its import instead, as the import does now.
        changes["assets", default: []].append(
            "ALTER COLUMN sort_date TYPE timestamp USING coalesce(pg_temp.moment(sort_date), CAST(left(imported_at, 19) AS timestamp))")
        let alters = changes.keys.sorted().map { table in
            "ALTER TABLE \(table)\n    " + changes[table, default: []].joined(separator: ",\n    ") + ";"
        }
        return """
            DROP INDEX assets_by_date;
            DROP INDEX assets_by_import;
            DROP INDEX assets_by_trash;
            DROP INDEX assets_by_day;
            CREATE FUNCTION pg_temp.moment(text) RETURNS timestamp LANGUAGE plpgsql AS $$
            BEGIN
                RETURN CAST($1 AS timestamp);
            EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
                RETURN NULL;
            END $$;
            \(alters.joined(separator: "\n"))
            """
    }
}
