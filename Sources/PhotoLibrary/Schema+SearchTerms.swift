import Storage

extension LibrarySchema {
    /// What a search field suggests as a person types (`Catalog.suggestions`): each place (its
    /// town, region and country, as `Place.description` writes it), country and camera of their
    /// library, with how many of the library's items have it. Kept by triggers as items come,
    /// change and go (the library's own membership: not the trash, not unsaved captures, not a
    /// Live Photo's movie), as the day counts are, so that a suggestion is a range of one
    /// person's rows of a small table, never a look through the library.
    static func searchTerms(_ dialect: SQLDialect) -> String {
        let terms = SearchTerms(dialect: dialect)
        let table = """
            CREATE TABLE search_terms (
                owner_id INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('place', 'country', 'camera')),
                term TEXT NOT NULL,
                items INTEGER NOT NULL,
                PRIMARY KEY (owner_id, kind, term)
            );
            \(terms.everyRowCounted)
            """
        let columns = ["place", "camera_model", "owner_id", "trashed_at", "unsaved", "live_photo_of"]
        let changed = columns.joined(separator: ", ")
        guard dialect == .postgreSQL else {
            return """
                \(table)
                CREATE TRIGGER search_terms_counted AFTER INSERT ON assets BEGIN
                \(terms.counting("NEW"))
                END;
                CREATE TRIGGER search_terms_uncounted AFTER DELETE ON assets BEGIN
                \(terms.uncounting("OLD"))
                END;
                CREATE TRIGGER search_terms_recounted AFTER UPDATE OF \(changed) ON assets BEGIN
                \(terms.uncounting("OLD"))
                \(terms.counting("NEW"))
                END;
                """
        }
        // PostgreSQL counts a statement's rows together, from its transition tables: a row
        // updated again and again in one transaction leaves a version each time, and a thousand
        // items trashed at once (or a library handed over) would update the same terms a
        // thousand times, each slower than the last. An update counts only the rows whose
        // terms or membership it changed.
        let listed = { (row: String) in columns.map { "\(row).\($0)" }.joined(separator: ", ") }
        let changedRows = { (side: String) in
            """
            (SELECT \(side).* FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (\(listed("n"))) IS DISTINCT FROM (\(listed("o"))))
            """
        }
        return """
            \(table)
            CREATE FUNCTION count_search_terms() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    \(terms.uncounting(changedRows("o")))
                    \(terms.counting(changedRows("n")))
                ELSIF TG_OP = 'INSERT' THEN
                    \(terms.counting("new_rows"))
                ELSE
                    \(terms.uncounting("old_rows"))
                END IF;
                RETURN NULL;
            END $$;
            \(statementTriggers(
                "count_search_terms", inserted: "search_terms_counted", deleted: "search_terms_uncounted",
                updated: "search_terms_recounted"))
            """
    }

    /// The statements that count and uncount a row's terms, in an engine's words.
    struct SearchTerms {
        let dialect: SQLDialect

        /// A field of the row's place (JSON text), NULL without one.
        private func field(_ row: String, _ name: String) -> String {
            dialect == .sqlite ? "json_extract(\(row).place, '$.\(name)')" : "(\(row).place::jsonb ->> '\(name)')"
        }

        /// Counts the terms of every row already there.
        var everyRowCounted: String { counting("assets") }

        /// The terms of the rows of `source` (a table or a subquery), counted by owner.
        private func grouped(_ source: String) -> String {
            let each = terms("a").map {
                "SELECT a.owner_id, '\($0.kind)' AS kind, \($0.term) AS term FROM \(source) a WHERE \(counted("a"))"
            }
            return """
                SELECT t.owner_id, t.kind, t.term, count(*) AS items FROM (\(each.joined(separator: " UNION ALL "))) t
                WHERE t.term IS NOT NULL AND t.term <> '' GROUP BY t.owner_id, t.kind, t.term
                """
        }

        /// Counts the terms of the rows of `source` (PostgreSQL's transition tables, or all of
        /// `assets`), or of SQLite's `NEW` row.
        func counting(_ source: String) -> String {
            guard dialect == .postgreSQL || source == "assets" else { return countingRow(source) }
            return """
                INSERT INTO search_terms (owner_id, kind, term, items) \(grouped(source))
                    ON CONFLICT (owner_id, kind, term) DO UPDATE SET items = search_terms.items + excluded.items;
                """
        }

        /// Uncounts the terms of the rows of `source` (PostgreSQL's transition tables), or of
        /// SQLite's `OLD` row.
        func uncounting(_ source: String) -> String {
            guard dialect == .postgreSQL else { return uncountingRow(source) }
            return """
                UPDATE search_terms s SET items = s.items - d.items FROM (\(grouped(source))) d
                    WHERE s.owner_id = d.owner_id AND s.kind = d.kind AND s.term = d.term;
                DELETE FROM search_terms s USING (SELECT DISTINCT owner_id FROM \(source) r) r WHERE s.owner_id = r.owner_id AND s.items <= 0;
                """
        }

        /// The row's terms: each kind with its expression.
        func terms(_ row: String) -> [(kind: String, term: String)] {
            [
                ("place", "\(field(row, "name")) || coalesce(', ' || \(field(row, "region")), '') || ', ' || \(field(row, "country"))"),
                ("country", field(row, "country")), ("camera", "\(row).camera_model"),
            ]
        }

        /// The row's terms as (kind, term) rows.
        private func rows(_ row: String) -> String {
            terms(row).map { "SELECT '\($0.kind)' AS kind, \($0.term) AS term" }.joined(separator: " UNION ALL ")
        }

        /// Whether the row is an item of its owner's library.
        func counted(_ row: String) -> String {
            AssetCollection.library.membership(of: row).joined(separator: " AND ")
        }

        private func countingRow(_ row: String) -> String {
            """
            INSERT INTO search_terms (owner_id, kind, term, items)
                SELECT \(row).owner_id, t.kind, t.term, 1 FROM (\(rows(row))) t
                WHERE t.term IS NOT NULL AND t.term <> '' AND \(counted(row))
                ON CONFLICT (owner_id, kind, term) DO UPDATE SET items = search_terms.items + 1;
            """
        }

        private func uncountingRow(_ row: String) -> String {
            """
            UPDATE search_terms SET items = items - 1 WHERE owner_id = \(row).owner_id AND (kind, term) IN (\(rows(row))) AND \(counted(row));
            DELETE FROM search_terms WHERE owner_id = \(row).owner_id AND items <= 0;
            """
        }
    }
}
