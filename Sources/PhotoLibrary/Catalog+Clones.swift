package import Places
import Storage

/// What sets clones apart beyond the views' shares, so that a search finds few of them as it
/// would in a real library: trips away from the source's place, and words read in a few.
package struct CloneVariety: Sendable {
    /// Places visited: the `j`th is where 500 clones taken one after another were (a trip) in
    /// each 50 such runs, 2% of the library each; the rest are at the source's place.
    package var trips: [Place] = []
    /// Words read in one clone in 1,000 (a receipt, a sign).
    package var pictureWords: String?

    package init(trips: [Place] = [], pictureWords: String? = nil) {
        self.trips = trips
        self.pictureWords = pictureWords
    }
}

extension Catalog {
    /// Fills the library with `count` copies of one asset's row, made in SQL, for benchmarks and
    /// plan tests at the sizes people have (a million items takes a minute, not the hours its
    /// imports would): ids and hashes numbered, capture dates one after another over twenty
    /// years, import dates over the last five, and the views' members in the shares a family
    /// library has (a favourite in 50, a movie in 10, a Live Photo's movie half in 31, a trashed
    /// item in 97, an unsaved capture in 211). Only rows: the copies share the original's blob
    /// and have none of their own, so they are for listings, never for pixels.
    /// `batch`: rows a statement makes; each statement is well within PostgreSQL's statement
    /// timeout on a busy machine, its triggers' work included.
    package func cloneRows(
        of source: String, count: Int, variety: CloneVariety = CloneVariety(), batch: Int = 10_000, progress: (Int) -> Void = { _ in }
    ) async throws(LibraryError) {
        let dialect = database.dialect
        let columns = try await read { connection throws(StorageError) in
            try connection.query("SELECT * FROM assets WHERE id = ?", [source]).first?.columnNames
        }
        guard let columns else { throw LibraryError(.notFound, "There is no asset with that id.") }
        var varied: [(String, String)] = [
            ("id", Self.cloneID("i", dialect)),
            ("blob_hash", Self.hex("i", digits: 64, dialect)),
            ("sort_date", Self.clock("1104537600 + i * (631152000 / \(count))", dialect, zoned: false)),
            ("imported_at", Self.clock("1640995200 + i * (157680000 / \(count))", dialect, zoned: true)),
            ("favorite", "i % 50 = 0"),
            ("unsaved", "i % 211 = 0"),
            ("trashed_at", "CASE WHEN i % 97 = 0 THEN \(Self.clock("1764547200 + i", dialect, zoned: true)) END"),
            ("live_photo_of", "CASE WHEN i % 31 = 0 THEN \(Self.cloneID("i - 1", dialect)) END"),
            ("media_type", "CASE WHEN i % 10 = 0 OR i % 31 = 0 THEN 'public.movie' ELSE 'public.image' END"),
            ("format", "CASE WHEN i % 10 = 0 OR i % 31 = 0 THEN 'mp4' ELSE s.format END"),
            ("mime_type", "CASE WHEN i % 10 = 0 OR i % 31 = 0 THEN 'video/mp4' ELSE s.mime_type END"),
            ("duration", "CASE WHEN i % 10 = 0 OR i % 31 = 0 THEN 3.0 ELSE NULL END"),
            ("original_filename", "'IMG_' || i || '.JPG'"),
        ]
        var chosen: [any SQLBindable] = []
        if !variety.trips.isEmpty {
            let trips = variety.trips.map(Geocoder.columns(of:))
            for (index, name) in ["place", "place_words"].enumerated() {
                let cases = trips.indices.map { "WHEN (i / 500) % 50 = \($0 + 1) THEN ?" }.joined(separator: " ")
                varied.append((name, "CASE \(cases) ELSE s.\(name) END"))
                chosen += trips.map { $0[index] }
            }
        }
        if let words = variety.pictureWords {
            varied.append(("picture_words", "CASE WHEN i % 1000 = 500 THEN ? ELSE s.picture_words END"))
            chosen.append(words)
        }
        let kept = columns.filter { name in name != "search_rowid" && !varied.contains { $0.0 == name } }
        let names = varied.map(\.0) + kept
        let values = varied.map(\.1) + kept.map { "s.\($0)" }
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO assets (\(names.joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM n, assets s WHERE s.id = ?
            """
        let bound = chosen
        var done = 0
        while done < count {
            let (first, last) = (done + 1, min(done + batch, count))
            try await write { connection throws(StorageError) in try connection.run(sql, [first, last] + bound + [source]) }
            done = last
            progress(done)
        }
        try await recountDays()
    }

    /// Puts the newest `count` of the library's items in an album (for benchmarks and tests).
    package func fillAlbum(_ album: String, count: Int) async throws(LibraryError) {
        try await write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO album_assets (album_id, asset_id, added_at, sort_date)
                SELECT ?, a.id, a.imported_at, a.sort_date FROM assets a
                WHERE a.trashed_at IS NULL AND a.live_photo_of IS NULL AND NOT a.unsaved
                ORDER BY a.sort_date DESC, a.id DESC LIMIT ?
                ON CONFLICT DO NOTHING
                """, [album, count])
        }
        try await recountDays()
    }

    /// Refreshes the planner's statistics at once, as a library that has run for a while has
    /// them (`PRAGMA optimize`, autovacuum).
    package func analyze() async throws(LibraryError) {
        try await write { connection throws(StorageError) in try connection.execute("ANALYZE") }
    }

    /// The clone numbered `number` (SQL)'s id: 32 hex digits as the library's own ids are.
    private static func cloneID(_ number: String, _ dialect: SQLDialect) -> String { hex(number, digits: 32, dialect) }

    private static func hex(_ number: String, digits: Int, _ dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: "printf('%0\(digits)x', \(number))"
        case .postgreSQL: "lpad(to_hex(\(number)), \(digits), '0')"
        }
    }

    /// Seconds since 1970 (SQL) as the library keeps moments: ISO 8601 text on SQLite, in UTC
    /// with a `Z` or as a clock reads; a `timestamptz` or a `timestamp` on PostgreSQL.
    private static func clock(_ seconds: String, _ dialect: SQLDialect, zoned: Bool) -> String {
        switch dialect {
        case .sqlite: "strftime('%Y-%m-%dT%H:%M:%S\(zoned ? ".000Z" : "")', \(seconds), 'unixepoch')"
        case .postgreSQL: "to_timestamp(\(seconds))\(zoned ? "" : " AT TIME ZONE 'UTC'")"
        }
    }
}
