import Storage

extension LibrarySchema {
    /// The columns search reads, as each migration left them: the file's name and the camera
    /// (0014), then the place too (0023).
    enum SearchedColumns {
        case namesAndCamera, withPlace, withWords

        static let current = withWords

        var names: [String] {
            let place = self == .namesAndCamera ? [] : ["place_words"]
            return ["original_filename", "camera_make", "camera_model"] + place + (self == .withWords ? ["picture_words"] : [])
        }
    }

    /// What search reads of an asset (`row`'s columns, or the bare columns for nil), as one text.
    static func searchedWords(of row: String?, _ columns: SearchedColumns = .current) -> String {
        columns.names.map { name in "coalesce(\(row.map { "\($0).\(name)" } ?? name), '')" }.joined(separator: " || ' ' || ")
    }

    /// The columns whose change shows an asset in its albums or hides it there.
    private static let albumColumns = "media_type, trashed_at, live_photo_of"

    /// Listings that stay as fast at a million items as at a thousand, with the planner's
    /// statistics on: a partial index per view (`AssetCollection.views`) in place of the indexes
    /// on whole columns, which a planner with statistics chose for a rare NULL and read a million
    /// rows through; indexes of columns that are nearly always NULL that hold only the rows with a
    /// value, since SQLite's statistics count each NULL as a value of its own and took `IS NULL`
    /// for a rare one; album entries in their assets' order; the days of each view and album
    /// counted as items come and go (on SQLite in the order of their key alone, WITHOUT ROWID:
    /// a timeline of 7,300 days read in 2 ms, not 5 through a second b-tree); and an index of the
    /// words search reads (FTS5 trigrams on SQLite, `pg_trgm` on PostgreSQL). Each is filled
    /// from the rows already there.
    static func lifetimeListings(_ dialect: SQLDialect) -> String {
        let indexes = AssetCollection.views.map { view in
            "CREATE INDEX \(view.index) ON assets (\(view.collection.orderColumn) DESC, id DESC) WHERE "
                + view.collection.membership(of: nil).joined(separator: " AND ") + ";"
        }
        // SQLite kept a camera's clock's 30 February, hour 25 or year 0 as the sort date's text,
        // which no cursor may carry (`Library.isMoment`): such an item is ordered by its import,
        // as imports order it now (PostgreSQL's were, as it took its types). SQLite's clock
        // functions take any day to 31 as written, but for a modifier, which counts it over.
        let repair =
            dialect == .sqlite
            ? "UPDATE assets SET sort_date = substr(imported_at, 1, 19) WHERE substr(sort_date, 1, 4) = '0000' "
                + "OR strftime('%Y-%m-%dT%H:%M:%S', sort_date, '+0 days') IS NOT substr(sort_date, 1, 19);" : ""
        return """
            \(repair)
            DROP INDEX IF EXISTS assets_by_date;
            DROP INDEX IF EXISTS assets_by_import;
            DROP INDEX IF EXISTS assets_by_trash;
            DROP INDEX IF EXISTS assets_by_day;
            DROP INDEX assets_by_live_photo;
            DROP INDEX assets_by_content_identifier;
            CREATE INDEX assets_by_live_photo ON assets (live_photo_of) WHERE live_photo_of IS NOT NULL;
            CREATE INDEX assets_by_content_identifier ON assets (content_identifier) WHERE content_identifier IS NOT NULL;
            \(indexes.joined(separator: "\n"))
            ALTER TABLE album_assets ADD COLUMN sort_date \(dialect == .sqlite ? "TEXT" : "TIMESTAMP");
            UPDATE album_assets SET sort_date = (SELECT a.sort_date FROM assets a WHERE a.id = album_assets.asset_id);
            CREATE INDEX album_assets_in_order ON album_assets (album_id, sort_date DESC, asset_id DESC);
            CREATE TABLE day_counts (
                listing TEXT NOT NULL,
                day \(dialect == .sqlite ? "TEXT" : "DATE") NOT NULL,
                media_type TEXT NOT NULL,
                items INTEGER NOT NULL,
                PRIMARY KEY (listing, day, media_type)
            )\(dialect == .sqlite ? " WITHOUT ROWID" : "");
            \(everyDayCounted(.byListing))
            \(dialect == .sqlite ? sqliteTriggers(.byListing) + sqliteSearch : postgreSQLTriggers(.byListing, replacing: false) + postgreSQLSearch)
            """
    }

    /// Every view's and album's days counted from the rows, into an empty `day_counts`.
    static func everyDayCounted(_ counts: DayCounts) -> String {
        let owner = counts.byOwner ? "owner_id, " : ""
        let views = AssetCollection.views.map { view in
            let day = "date(\(view.collection.orderColumn))"
            return "SELECT \(owner)'\(view.name)', \(day), media_type, count(*) FROM assets WHERE "
                + view.collection.membership(of: nil).joined(separator: " AND ") + " GROUP BY \(owner)\(day), media_type"
        }
        return """
            INSERT INTO day_counts (\(counts.key), items)
                \(views.joined(separator: "\n    UNION ALL "));
            INSERT INTO day_counts (\(counts.key), items)
                SELECT \(counts.albumOwner)\(albumListing("m.album_id")), date(m.sort_date), a.media_type, count(*)
                FROM album_assets m JOIN assets a ON a.id = m.asset_id WHERE \(shownInAlbums("a"))
                GROUP BY m.album_id, date(m.sort_date), a.media_type;
            """
    }

    /// An album's name in `day_counts` (`AssetCollection.countedName`), from the SQL of its id.
    static func albumListing(_ id: String) -> String { "'album:' || \(id)" }

    /// The conditions an asset `row` meets to be shown in its albums.
    private static func shownInAlbums(_ row: String) -> String {
        AssetCollection.album("").membership(of: row).joined(separator: " AND ")
    }

    /// The SQL of the counts of `counts`' key: what keeps them as rows come and go. Each view's
    /// days are counted under the owner of the asset (`byOwner`), an album's under 0, its id
    /// being everyone's own; `byListing` is the form migration 0014 wrote, before there were
    /// people, and it must write the same text for ever.
    struct DayCounts {
        var byOwner: Bool

        static let byListing = DayCounts(byOwner: false)
        static let byOwnerAndListing = DayCounts(byOwner: true)

        /// `day_counts`' primary key.
        var key: String { byOwner ? "owner_id, listing, day, media_type" : "listing, day, media_type" }
        /// What a select of an album's days begins with.
        var albumOwner: String { byOwner ? "\(Owner.albums), " : "" }

        /// The columns whose change moves an asset between views or days (or owners).
        var countedColumns: String {
            "media_type, sort_date, imported_at, trashed_at, live_photo_of, unsaved, favorite" + (byOwner ? ", owner_id" : "")
        }

        /// One more item for each row of the key that `select` gives.
        func adding(_ select: String) -> String {
            """
            INSERT INTO day_counts (\(key), items) \(select)
                    ON CONFLICT (\(key)) DO UPDATE SET items = day_counts.items + 1;
            """
        }

        /// One item fewer where `condition` holds, of the owner `owner` (SQL). A day's row stays
        /// at zero: it would come back with the next item of that day, and the days a library
        /// can hold are few.
        func removing(owner: String, where condition: String) -> String {
            "UPDATE day_counts SET items = items - 1 WHERE \(byOwner ? "owner_id = \(owner) AND " : "")\(condition);"
        }

        /// `row` counted in its views' days (`WHERE true` keeps SQLite from reading the upsert's
        /// ON as a join's).
        func counting(_ row: String) -> String {
            adding(
                "SELECT \(byOwner ? "\(row).owner_id, " : "")listing, day, \(row).media_type, 1 FROM (\(countedDays(of: row))) AS d WHERE true"
            )
        }

        func uncounting(_ row: String) -> String {
            removing(owner: "\(row).owner_id", where: "media_type = \(row).media_type AND (listing, day) IN (\(countedDays(of: row)))")
        }

        /// The asset `row` counted in its albums' days.
        func countingInAlbums(_ row: String) -> String {
            adding(
                "SELECT \(albumOwner)\(albumListing("m.album_id")), date(m.sort_date), \(row).media_type, 1 FROM album_assets m "
                    + "WHERE m.asset_id = \(row).id AND \(shownInAlbums(row))")
        }

        /// The asset `row` no longer counted in its albums' days: before its entries go with it.
        func uncountingInAlbums(_ row: String) -> String {
            removing(
                owner: "\(Owner.albums)",
                where: "media_type = \(row).media_type AND \(shownInAlbums(row)) AND (listing, day) IN (\(albumDays(of: row)))")
        }

        /// An album's entry `entry` counted in its days, when its asset is shown.
        func countingEntry(_ entry: String) -> String {
            adding(
                "SELECT \(albumOwner)\(albumListing("\(entry).album_id")), date(\(entry).sort_date), a.media_type, 1 FROM assets a "
                    + "WHERE a.id = \(entry).asset_id AND \(shownInAlbums("a"))")
        }

        /// An entry no longer counted; one that goes with its asset was uncounted before.
        func uncountingEntry(_ entry: String) -> String {
            removing(
                owner: "\(Owner.albums)",
                where: "listing = \(albumListing("\(entry).album_id")) AND day = date(\(entry).sort_date) "
                    + "AND media_type = (SELECT a.media_type FROM assets a WHERE a.id = \(entry).asset_id AND \(shownInAlbums("a")))")
        }

        /// A deleted album's counts.
        var forgettingAlbum: String {
            "DELETE FROM day_counts WHERE \(byOwner ? "owner_id = \(Owner.albums) AND " : "")listing = \(albumListing("OLD.id"));"
        }
    }

    /// The views and days `row` is counted in, as rows of (listing, day).
    private static func countedDays(of row: String) -> String {
        AssetCollection.views.map { view in
            "SELECT '\(view.name)' AS listing, date(\(row).\(view.collection.orderColumn)) AS day WHERE "
                + view.collection.membership(of: row).joined(separator: " AND ")
        }.joined(separator: " UNION ALL ")
    }

    /// The days of `row`'s entries in its albums, as rows of (listing, day).
    private static func albumDays(of row: String) -> String {
        "SELECT \(albumListing("m.album_id")), date(m.sort_date) FROM album_assets m WHERE m.asset_id = \(row).id"
    }

    /// A SQLite trigger running `statements` on `event`.
    private static func trigger(_ name: String, _ event: String, _ statements: String...) -> String {
        "CREATE TRIGGER \(name) \(event) BEGIN\n" + statements.joined(separator: "\n") + "\nEND;"
    }

    /// SQLite keeps the counts with triggers.
    static func sqliteTriggers(_ counts: DayCounts) -> String {
        """
        \(trigger("assets_counted", "AFTER INSERT ON assets", counts.counting("NEW")))
        \(trigger("assets_uncounted", "AFTER DELETE ON assets", counts.uncounting("OLD")))
        \(trigger("assets_recounted", "AFTER UPDATE OF \(counts.countedColumns) ON assets", counts.uncounting("OLD"), counts.counting("NEW")))
        \(trigger("assets_recounted_in_albums", "AFTER UPDATE OF \(albumColumns) ON assets", counts.uncountingInAlbums("OLD"), counts.countingInAlbums("NEW")))
        \(trigger("assets_uncounted_in_albums", "BEFORE DELETE ON assets", counts.uncountingInAlbums("OLD")))
        \(trigger("album_entries_counted", "AFTER INSERT ON album_assets", counts.countingEntry("NEW")))
        \(trigger("album_entries_uncounted", "AFTER DELETE ON album_assets", counts.uncountingEntry("OLD")))
        \(trigger("albums_uncounted", "AFTER DELETE ON albums", counts.forgettingAlbum))

        """
    }

    /// SQLite keeps the words in an FTS5 table of trigrams whose rowid is `search_rowid`: the
    /// assets' own rowid would do but that VACUUM may renumber it.
    private static var sqliteSearch: String {
        """
        ALTER TABLE assets ADD COLUMN search_rowid INTEGER;
        UPDATE assets SET search_rowid = rowid;
        CREATE UNIQUE INDEX assets_by_search_rowid ON assets (search_rowid);
        CREATE VIRTUAL TABLE asset_search USING fts5(words, tokenize = 'trigram');
        INSERT INTO asset_search (rowid, words) SELECT search_rowid, \(searchedWords(of: nil, .namesAndCamera)) FROM assets;
        \(sqliteSearchTriggers(.namesAndCamera))
        """
    }

    /// What keeps SQLite's words as the rows change.
    static func sqliteSearchTriggers(_ columns: SearchedColumns) -> String {
        """
        \(trigger(
            "assets_searchable", "AFTER INSERT ON assets",
            "UPDATE assets SET search_rowid = (SELECT coalesce(max(search_rowid), 0) + 1 FROM assets) WHERE rowid = NEW.rowid;",
            "INSERT INTO asset_search (rowid, words) SELECT search_rowid, \(searchedWords(of: "NEW", columns)) FROM assets WHERE rowid = NEW.rowid;"))
        \(trigger("assets_unsearchable", "AFTER DELETE ON assets", "DELETE FROM asset_search WHERE rowid = OLD.search_rowid;"))
        \(trigger(
            "assets_searchable_again", "AFTER UPDATE OF \(columns.names.joined(separator: ", ")) ON assets",
            "UPDATE asset_search SET words = \(searchedWords(of: "NEW", columns)) WHERE rowid = NEW.search_rowid;"))
        """
    }

    /// The words in each photo (`WordReader`): what Tesseract read (NULL for none), which
    /// edition of the reader read them (NULL until one has: photos are read from their own
    /// index), and since when a server holds a photo to read it. Search reads the words: SQLite's
    /// triggers and PostgreSQL's index again, as for places.
    static func pictureWords(_ dialect: SQLDialect) -> String {
        """
        ALTER TABLE assets ADD COLUMN picture_words TEXT;
        ALTER TABLE assets ADD COLUMN words_edition INTEGER;
        ALTER TABLE assets ADD COLUMN words_claimed_at \(dialect == .sqlite ? "REAL" : "double precision");
        CREATE INDEX assets_awaiting_words ON assets (id) WHERE media_type = 'public.image' AND words_edition IS NULL;
        \(searchReading(.withWords, dialect))
        """
    }

    /// Search made to read `columns`: SQLite's triggers that write its words anew (the rows
    /// already there keep theirs until they change), PostgreSQL's index made again.
    private static func searchReading(_ columns: SearchedColumns, _ dialect: SQLDialect) -> String {
        dialect == .sqlite
            ? """
            DROP TRIGGER assets_searchable;
            DROP TRIGGER assets_unsearchable;
            DROP TRIGGER assets_searchable_again;
            \(sqliteSearchTriggers(columns))
            """
            : """
            DROP INDEX assets_by_words;
            CREATE INDEX assets_by_words ON assets USING gin ((lower(\(searchedWords(of: nil, columns)))) gin_trgm_ops);
            """
    }

    /// Where each asset was taken, in words (`Geocoder`): the place as JSON for the pages, the
    /// words search reads of it, and the gazetteer's edition that looked it up (NULL until one
    /// has: those with a position are looked up in the background, from their own index). Search
    /// reads the place: SQLite's words are written again by triggers that read it (the words of
    /// rows already there are theirs already, as no row has a place yet), PostgreSQL's index is
    /// made again of the new words.
    static func places(_ dialect: SQLDialect) -> String {
        """
        ALTER TABLE assets ADD COLUMN place TEXT;
        ALTER TABLE assets ADD COLUMN place_words TEXT;
        ALTER TABLE assets ADD COLUMN place_edition INTEGER;
        CREATE INDEX assets_awaiting_place ON assets (id) WHERE latitude IS NOT NULL AND place_edition IS NULL;
        \(searchReading(.withPlace, dialect))
        """
    }

    /// PostgreSQL keeps the counts with trigger functions (an import's and a trashing's day is
    /// UTC's, whichever zone the writing session has); `replacing` replaces the functions of an
    /// earlier form, and the one trigger whose columns change.
    static func postgreSQLTriggers(_ counts: DayCounts, replacing: Bool) -> String {
        let create = replacing ? "CREATE OR REPLACE FUNCTION" : "CREATE FUNCTION"
        let countedTrigger = """
            CREATE TRIGGER assets_counted AFTER INSERT OR DELETE OR UPDATE OF \(counts.countedColumns) ON assets
                FOR EACH ROW EXECUTE FUNCTION count_asset_days();
            """
        let otherTriggers = """
            CREATE TRIGGER assets_uncounted_in_albums BEFORE DELETE ON assets
                FOR EACH ROW EXECUTE FUNCTION count_asset_album_days();
            CREATE TRIGGER assets_recounted_in_albums AFTER UPDATE OF \(albumColumns) ON assets
                FOR EACH ROW EXECUTE FUNCTION count_asset_album_days();
            """
        return """
            \(create) count_asset_days() RETURNS trigger LANGUAGE plpgsql SET TimeZone = 'UTC' AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    \(counts.uncounting("OLD"))
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    \(counts.counting("NEW"))
                END IF;
                RETURN NULL;
            END $$;
            \(replacing ? "DROP TRIGGER assets_counted ON assets;\n" + countedTrigger : countedTrigger)
            \(create) count_asset_album_days() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(counts.uncountingInAlbums("OLD"))
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                \(counts.countingInAlbums("NEW"))
                RETURN NEW;
            END $$;
            \(replacing ? "" : otherTriggers)
            \(create) count_album_entry_days() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    \(counts.countingEntry("NEW"))
                ELSE
                    \(counts.uncountingEntry("OLD"))
                END IF;
                RETURN NULL;
            END $$;
            \(replacing ? "" : "CREATE TRIGGER album_entries_counted AFTER INSERT OR DELETE ON album_assets\n    FOR EACH ROW EXECUTE FUNCTION count_album_entry_days();")
            \(create) forget_album_days() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(counts.forgettingAlbum)
                RETURN NULL;
            END $$;
            \(replacing ? "" : "CREATE TRIGGER albums_uncounted AFTER DELETE ON albums FOR EACH ROW EXECUTE FUNCTION forget_album_days();")

            """
    }

    /// PostgreSQL searches the words through a trigram index on them (`pg_trgm`, a trusted
    /// extension the database's owner may create).
    private static var postgreSQLSearch: String {
        """
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX assets_by_words ON assets USING gin ((lower(\(searchedWords(of: nil, .namesAndCamera)))) gin_trgm_ops);
        """
    }
}
