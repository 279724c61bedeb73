import PhotoLibrary
import Storage

/// A statement's plan as lines: SQLite's `EXPLAIN QUERY PLAN` details, PostgreSQL's `EXPLAIN`
/// text, for tests that check a query reads its index on both engines.
func queryPlan(_ library: Library, _ sql: String, _ arguments: [any SQLBindable]) async throws -> [String] {
    let dialect = library.database.dialect
    return try await library.database.read { connection throws(StorageError) in
        switch dialect {
        case .sqlite:
            try connection.query("EXPLAIN QUERY PLAN " + sql, arguments).map { row throws(StorageError) in try row.text("detail") }
        case .postgreSQL:
            try connection.query("EXPLAIN " + sql, arguments).map { row throws(StorageError) in try row.text("QUERY PLAN") }
        }
    }
}

/// The plan's lines that read a whole table of `tables` (SQLite's `SCAN t` without an index,
/// PostgreSQL's `Seq Scan on t`).
func wholeTableScans(_ lines: [String], of tables: [String]) -> [String] {
    let names = tables.joined(separator: "|")
    return lines.filter { line in
        line.range(of: #"Seq Scan on (\#(names))\b"#, options: .regularExpression) != nil
            || line.range(of: #"^SCAN (\#(names))\b(?! USING)"#, options: .regularExpression) != nil
    }
}

extension Library {
    /// The first admin's library items (a page of them) that a search for `text` finds.
    func ids(searching text: String) async throws -> Set<String> {
        var query = AssetQuery()
        query.search = text
        return Set(try await catalog.assets(query, owner: .first).assets.map(\.id))
    }
}
