import Storage

extension LibrarySchema {
    /// The index each view is read through: its order, newest first, over its members alone
    /// (a partial index whose condition is the view's own), so that a page is the first rows of
    /// the index, or the rows after a cursor, whatever the planner knows of the table.
    static let viewIndexes: [(name: String, collection: AssetCollection)] = [
        ("assets_in_library", .library), ("assets_in_favorites", .favorites), ("assets_recently_added", .recentlyAdded),
        ("assets_unsaved", .unsavedCaptures), ("assets_in_trash", .recentlyDeleted),
    ]

    /// What search reads of an asset (`row`'s columns, or the bare columns for nil), as one
    /// text: its file name and camera.
    static func searchedWords(of row: String?) -> String {
        let column = { (name: String) in row.map { "\($0).\(name)" } ?? name }
        return "coalesce(\(column("original_filename")), '') || ' ' || coalesce(\(column("camera_make")), '') || ' ' || "
            + "coalesce(\(column("camera_model")), '')"
    }

    /// The columns whose change moves an asset between views or days.
    private static let countedColumns = "media_type, sort_date, imported_at, trashed_at, live_photo_of, unsaved, favorite"

    /// Listings that stay as fast at a million items as at a thousand, with the planner's
    /// statistics on: a partial index per view in place of the indexes on whole columns (which a
    /// planner with statistics chose for a rare NULL and read a million rows through); the
    /// indexes of the columns that are nearly always NULL hold only the rows that have a value,
    /// since SQLite's statistics count each NULL as a value of its own and so took `IS NULL`
    /// for a rare one, found through that index; album
    /// entries in their assets' order, the days of each view counted as items come and go, and
    /// an index of the words search reads (FTS5 trigrams on SQLite, `pg_trgm` on PostgreSQL),
    /// each filled from the rows already there.
    static func lifetimeListings(_ dialect: SQLDialect) -> String {
        let indexes = viewIndexes.map { index in
            let order = index.collection.orderColumn
            return "CREATE INDEX \(index.name) ON assets (\(order) DESC, id DESC) WHERE "
                + index.collection.membership(of: nil).joined(separator: " AND ") + ";"
        }
        let counts = AssetCollection.counted.map { view in
            let day = "substr(\(view.collection.orderColumn), 1, 10)"
            return "SELECT '\(view.name)', \(day), media_type, count(*) FROM assets WHERE "
                + view.collection.membership(of: nil).joined(separator: " AND ") + " GROUP BY \(day), media_type"
        }
        return """
            DROP INDEX assets_by_date;
            DROP INDEX assets_by_import;
            DROP INDEX assets_by_trash;
            DROP INDEX assets_by_day;
            DROP INDEX assets_by_live_photo;
            DROP INDEX assets_by_content_identifier;
            CREATE INDEX assets_by_live_photo ON assets (live_photo_of) WHERE live_photo_of IS NOT NULL;
            CREATE INDEX assets_by_content_identifier ON assets (content_identifier) WHERE content_identifier IS NOT NULL;
            \(indexes.joined(separator: "\n"))
            ALTER TABLE album_assets ADD COLUMN sort_date TEXT;
            UPDATE album_assets SET sort_date = (SELECT a.sort_date FROM assets a WHERE a.id = album_assets.asset_id);
            CREATE INDEX album_assets_in_order ON album_assets (album_id, sort_date DESC, asset_id DESC);
            CREATE TABLE day_counts (
                listing TEXT NOT NULL,
                day TEXT NOT NULL,
                media_type TEXT NOT NULL,
                items INTEGER NOT NULL,
                PRIMARY KEY (listing, day, media_type)
            );
            INSERT INTO day_counts (listing, day, media_type, items)
                \(counts.joined(separator: "\n    UNION ALL "));
            INSERT INTO day_counts (listing, day, media_type, items)
                SELECT \(albumListing("m")), substr(m.sort_date, 1, 10), a.media_type, count(*)
                FROM album_assets m JOIN assets a ON a.id = m.asset_id WHERE \(albumMember("a"))
                GROUP BY m.album_id, substr(m.sort_date, 1, 10), a.media_type;
            \(dialect == .sqlite ? sqliteTriggers : postgreSQLTriggers)
            """
    }

    /// An album's name in `day_counts` (`AssetCollection.countedName`), from its entry `entry`.
    private static func albumListing(_ entry: String) -> String { "'album:' || \(entry).album_id" }

    /// The conditions an asset `row` meets to be shown in its albums.
    private static func albumMember(_ row: String) -> String {
        AssetCollection.album("").membership(of: row).joined(separator: " AND ")
    }

    /// The asset `row` counted in its albums' days.
    private static func countingInAlbums(_ row: String) -> String {
        """
        INSERT INTO day_counts (listing, day, media_type, items)
                SELECT \(albumListing("m")), substr(m.sort_date, 1, 10), \(row).media_type, 1 FROM album_assets m
                WHERE m.asset_id = \(row).id AND \(albumMember(row))
                ON CONFLICT (listing, day, media_type) DO UPDATE SET items = day_counts.items + 1;
        """
    }

    /// The asset `row` no longer counted in its albums' days: before its entries go with it.
    private static func uncountingInAlbums(_ row: String) -> String {
        """
        UPDATE day_counts SET items = items - 1 WHERE media_type = \(row).media_type AND \(albumMember(row))
                AND (listing, day) IN (SELECT \(albumListing("m")), substr(m.sort_date, 1, 10) FROM album_assets m WHERE m.asset_id = \(row).id);
        """
    }

    /// An album's entry `entry` counted in its days, when its asset is shown.
    private static func countingEntry(_ entry: String) -> String {
        """
        INSERT INTO day_counts (listing, day, media_type, items)
                SELECT \(albumListing(entry)), substr(\(entry).sort_date, 1, 10), a.media_type, 1 FROM assets a
                WHERE a.id = \(entry).asset_id AND \(albumMember("a"))
                ON CONFLICT (listing, day, media_type) DO UPDATE SET items = day_counts.items + 1;
        """
    }

    /// An entry no longer counted; one that goes with its asset was uncounted before.
    private static func uncountingEntry(_ entry: String) -> String {
        """
        UPDATE day_counts SET items = items - 1 WHERE listing = \(albumListing(entry)) AND day = substr(\(entry).sort_date, 1, 10)
                AND media_type = (SELECT a.media_type FROM assets a WHERE a.id = \(entry).asset_id AND \(albumMember("a")));
        """
    }

    /// The views and days `row` is counted in, as rows of (listing, day).
    private static func countedDays(of row: String) -> String {
        AssetCollection.counted.map { view in
            "SELECT '\(view.name)' AS listing, substr(\(row).\(view.collection.orderColumn), 1, 10) AS day WHERE "
                + view.collection.membership(of: row).joined(separator: " AND ")
        }.joined(separator: " UNION ALL ")
    }

    /// `row` counted in its views' days (`WHERE true` keeps SQLite from reading the upsert's ON
    /// as a join's).
    private static func counting(_ row: String) -> String {
        """
        INSERT INTO day_counts (listing, day, media_type, items)
                SELECT listing, day, \(row).media_type, 1 FROM (\(countedDays(of: row))) AS d WHERE true
                ON CONFLICT (listing, day, media_type) DO UPDATE SET items = day_counts.items + 1;
        """
    }

    /// `row` no longer counted. A day's row stays at zero: it would come back with the next
    /// item of that day, and the days a library can hold are few.
    private static func uncounting(_ row: String) -> String {
        "UPDATE day_counts SET items = items - 1 WHERE media_type = \(row).media_type AND (listing, day) IN (\(countedDays(of: row)));"
    }

    /// SQLite keeps the counts with triggers, and the words in an FTS5 table of trigrams whose
    /// rowid is `search_rowid`: the assets' own rowid would do but that VACUUM may renumber it.
    private static var sqliteTriggers: String {
        """
        CREATE TRIGGER assets_counted AFTER INSERT ON assets BEGIN
            \(counting("NEW"))
        END;
        CREATE TRIGGER assets_uncounted AFTER DELETE ON assets BEGIN
            \(uncounting("OLD"))
        END;
        CREATE TRIGGER assets_recounted AFTER UPDATE OF \(countedColumns) ON assets BEGIN
            \(uncounting("OLD"))
            \(counting("NEW"))
            \(uncountingInAlbums("OLD"))
            \(countingInAlbums("NEW"))
        END;
        CREATE TRIGGER assets_uncounted_in_albums BEFORE DELETE ON assets BEGIN
            \(uncountingInAlbums("OLD"))
        END;
        CREATE TRIGGER album_entries_counted AFTER INSERT ON album_assets BEGIN
            \(countingEntry("NEW"))
        END;
        CREATE TRIGGER album_entries_uncounted AFTER DELETE ON album_assets BEGIN
            \(uncountingEntry("OLD"))
        END;
        CREATE TRIGGER albums_uncounted AFTER DELETE ON albums BEGIN
            DELETE FROM day_counts WHERE listing = 'album:' || OLD.id;
        END;
        ALTER TABLE assets ADD COLUMN search_rowid INTEGER;
        UPDATE assets SET search_rowid = rowid;
        CREATE UNIQUE INDEX assets_by_search_rowid ON assets (search_rowid);
        CREATE VIRTUAL TABLE asset_search USING fts5(words, tokenize = 'trigram');
        INSERT INTO asset_search (rowid, words) SELECT search_rowid, \(searchedWords(of: nil)) FROM assets;
        CREATE TRIGGER assets_searchable AFTER INSERT ON assets BEGIN
            UPDATE assets SET search_rowid = (SELECT coalesce(max(search_rowid), 0) + 1 FROM assets) WHERE rowid = NEW.rowid;
            INSERT INTO asset_search (rowid, words) SELECT search_rowid, \(searchedWords(of: "NEW")) FROM assets WHERE rowid = NEW.rowid;
        END;
        CREATE TRIGGER assets_unsearchable AFTER DELETE ON assets BEGIN
            DELETE FROM asset_search WHERE rowid = OLD.search_rowid;
        END;
        CREATE TRIGGER assets_searchable_again AFTER UPDATE OF original_filename, camera_make, camera_model ON assets BEGIN
            UPDATE asset_search SET words = \(searchedWords(of: "NEW")) WHERE rowid = NEW.search_rowid;
        END;
        """
    }

    /// PostgreSQL keeps the counts with one trigger function, and searches the words through a
    /// trigram index on them (`pg_trgm`, a trusted extension the database's owner may create).
    private static var postgreSQLTriggers: String {
        """
        CREATE FUNCTION count_asset_days() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                \(uncounting("OLD"))
            END IF;
            IF TG_OP <> 'DELETE' THEN
                \(counting("NEW"))
            END IF;
            IF TG_OP = 'UPDATE' THEN
                \(uncountingInAlbums("OLD"))
                \(countingInAlbums("NEW"))
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER assets_counted AFTER INSERT OR DELETE OR UPDATE OF \(countedColumns) ON assets
            FOR EACH ROW EXECUTE FUNCTION count_asset_days();
        CREATE FUNCTION uncount_asset_in_albums() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(uncountingInAlbums("OLD"))
            RETURN OLD;
        END $$;
        CREATE TRIGGER assets_uncounted_in_albums BEFORE DELETE ON assets
            FOR EACH ROW EXECUTE FUNCTION uncount_asset_in_albums();
        CREATE FUNCTION count_album_entry_days() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                \(countingEntry("NEW"))
            ELSE
                \(uncountingEntry("OLD"))
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER album_entries_counted AFTER INSERT OR DELETE ON album_assets
            FOR EACH ROW EXECUTE FUNCTION count_album_entry_days();
        CREATE FUNCTION forget_album_days() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM day_counts WHERE listing = 'album:' || OLD.id;
            RETURN NULL;
        END $$;
        CREATE TRIGGER albums_uncounted AFTER DELETE ON albums FOR EACH ROW EXECUTE FUNCTION forget_album_days();
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX assets_by_words ON assets USING gin ((lower(\(searchedWords(of: nil)))) gin_trgm_ops);
        """
    }
}
