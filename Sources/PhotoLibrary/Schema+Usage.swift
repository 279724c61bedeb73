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
        let add = { (row: String) in
            "INSERT INTO owner_usage (owner_id, bytes) VALUES (\(row).owner_id, \(row).byte_size) "
                + "ON CONFLICT (owner_id) DO UPDATE SET bytes = owner_usage.bytes + excluded.bytes;"
        }
        let subtract = { (row: String) in "UPDATE owner_usage SET bytes = bytes - \(row).byte_size WHERE owner_id = \(row).owner_id;" }
        guard dialect == .postgreSQL else {
            return """
                \(table)
                CREATE TRIGGER assets_used AFTER INSERT ON assets BEGIN \(add("NEW")) END;
                CREATE TRIGGER assets_unused AFTER DELETE ON assets BEGIN \(subtract("OLD")) END;
                CREATE TRIGGER assets_used_anew AFTER UPDATE OF owner_id, byte_size ON assets BEGIN \(subtract("OLD")) \(add("NEW")) END;
                """
        }
        return """
            \(table)
            CREATE FUNCTION count_owner_usage() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    \(subtract("OLD"))
                END IF;
                IF TG_OP <> 'DELETE' THEN
                    \(add("NEW"))
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER assets_used AFTER INSERT OR DELETE OR UPDATE OF owner_id, byte_size ON assets
                FOR EACH ROW EXECUTE FUNCTION count_owner_usage();
            """
    }
}
