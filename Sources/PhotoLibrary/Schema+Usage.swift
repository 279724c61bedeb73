import Storage

extension LibrarySchema {
    /// The bytes each person's assets hold (`owner_usage`), kept by triggers as day counts are,
    /// so that a quota is checked with one row at any size of library. Everything that is
    /// theirs counts, Recently Deleted and unsaved captures too: it holds the disk until it goes.
    /// The same bytes kept by two people count for each, as each would need them alone.
    static func ownerUsage(_ dialect: SQLDialect) -> String {
        let table = """
            CREATE TABLE owner_usage (
                owner_id INTEGER PRIMARY KEY,
                bytes \(dialect == .sqlite ? "INTEGER" : "BIGINT") NOT NULL
            );
            INSERT INTO owner_usage (owner_id, bytes) SELECT owner_id, sum(byte_size) FROM assets GROUP BY owner_id;
            """
        guard dialect == .postgreSQL else {
            let add = { (row: String) in
                "INSERT INTO owner_usage (owner_id, bytes) VALUES (\(row).owner_id, \(row).byte_size) "
                    + "ON CONFLICT (owner_id) DO UPDATE SET bytes = owner_usage.bytes + excluded.bytes;"
            }
            let subtract = { (row: String) in "UPDATE owner_usage SET bytes = bytes - \(row).byte_size WHERE owner_id = \(row).owner_id;" }
            return """
                \(table)
                CREATE TRIGGER assets_used AFTER INSERT ON assets BEGIN \(add("NEW")) END;
                CREATE TRIGGER assets_unused AFTER DELETE ON assets BEGIN \(subtract("OLD")) END;
                CREATE TRIGGER assets_used_anew AFTER UPDATE OF owner_id, byte_size ON assets BEGIN \(subtract("OLD")) \(add("NEW")) END;
                """
        }
        // One row per person takes every change of theirs: counted per row, a transaction that
        // writes many rows (a copy, a benchmark's clones) would leave a dead version of it per
        // row, each found through the ones before, on PostgreSQL. There each statement counts
        // its rows at once, from its transition tables (which cannot name columns, so every
        // update counts, most to no change).
        return """
            \(table)
            CREATE FUNCTION count_owner_usage() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO owner_usage AS u (owner_id, bytes)
                        SELECT owner_id, sum(byte_size) FROM new_rows GROUP BY owner_id
                        ON CONFLICT (owner_id) DO UPDATE SET bytes = u.bytes + excluded.bytes;
                ELSIF TG_OP = 'DELETE' THEN
                    UPDATE owner_usage u SET bytes = u.bytes - gone.bytes
                        FROM (SELECT owner_id, sum(byte_size) AS bytes FROM old_rows GROUP BY owner_id) AS gone
                        WHERE u.owner_id = gone.owner_id;
                ELSE
                    INSERT INTO owner_usage AS u (owner_id, bytes)
                        SELECT owner_id, sum(bytes) FROM (
                            SELECT owner_id, byte_size AS bytes FROM new_rows
                            UNION ALL SELECT owner_id, -byte_size FROM old_rows) AS changes
                        GROUP BY owner_id HAVING sum(bytes) <> 0
                        ON CONFLICT (owner_id) DO UPDATE SET bytes = u.bytes + excluded.bytes;
                END IF;
                RETURN NULL;
            END $$;
            \(statementTriggers("count_owner_usage", inserted: "assets_used", deleted: "assets_unused", updated: "assets_used_anew"))
            """
    }

    /// PostgreSQL's triggers that run `function` once for each statement that inserts, deletes
    /// or updates assets, with its rows as the transition tables `new_rows` and `old_rows`.
    static func statementTriggers(_ function: String, inserted: String, deleted: String, updated: String) -> String {
        """
        CREATE TRIGGER \(inserted) AFTER INSERT ON assets REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION \(function)();
        CREATE TRIGGER \(deleted) AFTER DELETE ON assets REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION \(function)();
        CREATE TRIGGER \(updated) AFTER UPDATE ON assets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION \(function)();
        """
    }
}
