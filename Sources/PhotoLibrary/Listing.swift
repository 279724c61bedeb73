package import Storage
import Vocabulary

/// A query as SQL: which rows it reads, in which order, and what they must meet (but the
/// cursor). Every condition of a view is its partial index's own (`AssetCollection.membership`),
/// so that both engines read a page as the first rows of that index, statistics or none.
package struct Listing {
    /// The FROM clause: the assets (`a`), or an album's entries (`m`) with their assets.
    var rows: String
    /// The order column and the id that breaks its ties, as the query names them.
    var order: String
    var id: String
    var conditions: [String]
    var arguments: [any SQLBindable]
    /// The media types asked for when fewer than all.
    var mediaTypes: [MediaType]?
    var collection: AssetCollection
    var owner: Owner
    /// Partners whose shared library is shown inside `owner`'s (`AssetQuery.withPartners`).
    var partners: [Owner]
    /// Whether anything beyond the collection and its media types narrows it (a search, a
    /// filter of kinds, a period), so that its days are not a view's counted days.
    var isFiltered = false
    /// A search's place among `conditions`, its arguments' range, and every text it looks for.
    private var search: (condition: Int, arguments: Range<Int>, terms: [String])?
    private var dialect: SQLDialect

    /// `owner`'s listing; an album is its owner's already, and its entries are not asked again.
    /// `partners`: other people's libraries merged into the library's listing, newest first
    /// among them all.
    /// `synonyms`: other words a search looks for too (`Geocoder.synonyms`).
    package init(
        _ query: AssetQuery, owner: Owner, partners: [Owner] = [], synonyms: [String] = [], dialect: SQLDialect
    ) throws(LibraryError) {
        guard !query.mediaTypes.isEmpty else {
            throw LibraryError(.invalidRequest, "mediaTypes: name at least one media type.")
        }
        let column = query.collection.orderColumn
        collection = query.collection
        self.dialect = dialect
        self.owner = owner
        self.partners = query.collection == .library ? partners : []
        conditions = query.collection.membership(of: "a")
        if case .album(let album) = query.collection {
            // The entries in their assets' order, from the album's own index: an album of 10,000
            // is never read whole to find its newest.
            (rows, order, id) = ("album_assets m JOIN assets a ON a.id = m.asset_id", "m.\(column)", "m.asset_id")
            conditions.insert("m.album_id = ?", at: 0)
            arguments = [album]
        } else {
            // The owner first, as the view's index has it: a page is a range of that index.
            (rows, order, id) = ("assets a", "a.\(column)", "a.id")
            conditions.insert("a.owner_id = ?", at: 0)
            arguments = [owner.id]
        }
        let types = MediaType.allCases.filter(query.mediaTypes.contains)
        if types.count < MediaType.allCases.count {
            conditions.append("a.media_type IN (\(types.map { _ in "?" }.joined(separator: ", ")))")
            arguments += types.map(\.rawValue)
            mediaTypes = types
        }
        if let search = query.search, !search.isEmpty {
            guard search.count <= 100 else { throw LibraryError(.invalidRequest, "search: at most 100 characters.") }
            // No name holds them, and PostgreSQL's text ends at a NUL: "x\0y" would be "x".
            guard !search.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw LibraryError(.invalidRequest, "search: no control characters.")
            }
            let terms = [search] + synonyms
            let (condition, matched) = Self.matching(terms, dialect: dialect)
            self.search = (conditions.count, arguments.count..<arguments.count + matched.count, terms)
            conditions.append(condition)
            arguments += matched
            isFiltered = true
        }
        if let period = query.startingAt {
            guard let after = Library.periodAfter(period) else {
                throw LibraryError(.invalidRequest, "month: a month as YYYY-MM, or day: a day as YYYY-MM-DD.")
            }
            conditions.append("\(order) < ?")
            arguments.append(after)
            isFiltered = true
        }
        if let kinds = query.kinds, kinds.count < AssetKind.all.count {
            // Of no kind at all, a filter that admits nothing lists nothing.
            let listed = AssetKind.all.filter(kinds.contains).map(\.condition)
            conditions.append(listed.isEmpty ? "1 = 0" : "(\(listed.joined(separator: " OR ")))")
            isFiltered = true
        }
    }

    /// A statement and its arguments.
    package struct Statement: Sendable {
        package var sql: String
        package var arguments: [any SQLBindable]
    }

    /// The statement for up to `limit` rows after `cursor` (from the top without one), nearest
    /// first. A cursor is a row value, which both engines read as a range of the view's index:
    /// the page 500,000 items down starts where the cursor is, not after reading what is before.
    package func page(after cursor: Cursor?, direction: AssetQuery.Direction, limit: Int) -> Statement {
        let (conditions, arguments) = from(cursor, direction)
        let sequence = direction == .newer ? "ASC" : "DESC"
        let select = """
            SELECT \(Asset.columns(of: owner)) FROM \(rows) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(order) \(sequence), \(id) \(sequence) LIMIT ?
            """
        guard !partners.isEmpty else { return Statement(sql: select, arguments: arguments + [limit]) }
        // Each library's page is a range of its own index (the owner is the first condition);
        // the page is the nearest rows of them all.
        let libraries = [owner] + partners
        let sql =
            libraries.indices.map { "SELECT * FROM (\(select)) AS library\($0)" }.joined(separator: " UNION ALL ")
            + " ORDER BY \(collection.orderColumn) \(sequence), id \(sequence) LIMIT ?"
        let rest = Array(arguments.dropFirst())
        return Statement(sql: sql, arguments: libraries.flatMap { [$0.id] + rest + [limit] } + [limit])
    }

    /// The listing's conditions and their arguments from `cursor` on, in `direction`.
    private func from(_ cursor: Cursor?, _ direction: AssetQuery.Direction) -> ([String], [any SQLBindable]) {
        guard let cursor else { return (conditions, arguments) }
        return (conditions + ["(\(order), \(id)) \(direction == .newer ? ">" : "<") (?, ?)"], arguments + [cursor.key, cursor.id])
    }

    /// How many of a view's rows a search reads one by one before it asks the index of words.
    package static let window = 5_000
    /// How many matches make a search common enough to look for in the window: fewer are read
    /// from the index of words and sorted in less time than the window takes.
    package static let common = 1_000

    /// Whether the search finds at least `common` items in SQLite's index of words (theirs or
    /// others': the index is the library's), counted as far as that; nil where the window is
    /// read without asking (a short text, which the index cannot look up).
    package var commonSearch: Statement? {
        guard dialect == .sqlite, let search, search.terms.allSatisfy({ $0.unicodeScalars.count >= 3 }) else { return nil }
        return Statement(
            sql: "SELECT count(*) AS found FROM (\(Self.indexedWords) LIMIT \(Self.common)) AS m", arguments: [Self.phrases(search.terms)])
    }

    /// A search's page as found in the next `window` rows of the view's own index, each row's
    /// words read as it passes; its first rows when more than `limit - 1` of them match, else
    /// the index of words must be asked (`page`). SQLite's plan for a search reads every match
    /// from its trigram index and sorts them all: a place that most of a million items share
    /// took 3.7 s, where the newest matches of such a search are among the newest rows. nil
    /// where the index of words is read directly: on PostgreSQL, whose planner weighs its
    /// trigram index's statistics against the view's order; for partners' merged libraries;
    /// and for a text beyond ASCII, where SQLite's `LIKE` folds case less than the index does.
    package func pageInWindow(after cursor: Cursor?, direction: AssetQuery.Direction, limit: Int) -> Statement? {
        guard dialect == .sqlite, partners.isEmpty, let search, search.terms.allSatisfy({ $0.unicodeScalars.allSatisfy(\.isASCII) })
        else { return nil }
        var (matching, unsearched) = (self, self)
        let (condition, matched) = Self.containing(search.terms, in: "lower(\(LibrarySchema.searchedWords(of: "a")))")
        matching.conditions[search.condition] = condition
        matching.arguments.replaceSubrange(search.arguments, with: matched)
        unsearched.conditions.remove(at: search.condition)
        unsearched.arguments.removeSubrange(search.arguments)
        let (conditions, arguments) = matching.from(cursor, direction)
        let (windowConditions, windowArguments) = unsearched.from(cursor, direction)
        let newer = direction == .newer
        let (sequence, farthestFirst) = newer ? ("ASC", "DESC") : ("DESC", "ASC")
        let farthest = """
            (SELECT k, i FROM (SELECT \(order) AS k, \(id) AS i FROM \(rows) WHERE \(windowConditions.joined(separator: " AND "))
            ORDER BY \(order) \(sequence), \(id) \(sequence) LIMIT \(Self.window)) AS w ORDER BY k \(farthestFirst), i \(farthestFirst) LIMIT 1)
            """
        return Statement(
            sql: """
                SELECT \(Asset.columns(of: owner)) FROM \(rows)
                WHERE \(conditions.joined(separator: " AND ")) AND (\(order), \(id)) \(newer ? "<=" : ">=") \(farthest)
                ORDER BY \(order) \(sequence), \(id) \(sequence) LIMIT ?
                """, arguments: arguments + windowArguments + [limit])
    }

    /// The owner's condition and its arguments as a listing of days reads it: every library
    /// merged into the listing.
    private var owners: (condition: String, arguments: [any SQLBindable]) {
        let ids = ([owner] + partners).map(\.id)
        return (ids.count == 1 ? "= ?" : "IN (\(Library.placeholders(ids.count)))", ids)
    }

    /// The statement for the listing's days and their counts, newest first: a view's or an
    /// album's from the counts kept as its items come and go, a search's or a filter's from its
    /// rows.
    package var days: Statement {
        guard !isFiltered else {
            let day = "date(\(order))"
            var (conditions, arguments) = (conditions, arguments)
            if !partners.isEmpty {
                conditions[0] = "a.owner_id \(owners.condition)"
                arguments = owners.arguments + arguments.dropFirst()
            }
            return Statement(
                sql: """
                    SELECT \(day) AS day, count(*) AS count FROM \(rows) WHERE \(conditions.joined(separator: " AND "))
                    GROUP BY \(day) ORDER BY day DESC
                    """, arguments: arguments)
        }
        let types = mediaTypes.map { " AND media_type IN (\($0.map { _ in "?" }.joined(separator: ", ")))" } ?? ""
        let counted: (condition: String, arguments: [any SQLBindable]) = collection.isAlbum ? ("= ?", [Owner.albums]) : owners
        return Statement(
            sql: """
                SELECT day, sum(items) AS count FROM day_counts WHERE owner_id \(counted.condition) AND listing = ?\(types)
                GROUP BY day HAVING sum(items) > 0 ORDER BY day DESC
                """,
            arguments: counted.arguments + [collection.countedName] + (mediaTypes ?? []).map(\.rawValue))
    }

    /// The ids of a view's items whose order column is before `cutoff` (all of them without
    /// one), of `owner`'s or everyone's, under the view's own conditions so that its index
    /// serves: the trash's and the unsaved captures' expiry (everyone's), and Empty Trash (one
    /// person's). A Live Photo's movie goes with its still.
    package static func expiring(_ collection: AssetCollection, before cutoff: String?, owner: Owner? = nil) -> Statement {
        let conditions =
            (owner == nil ? [] : ["a.owner_id = ?"]) + collection.membership(of: "a")
            + (cutoff == nil ? [] : ["a.\(collection.orderColumn) < ?"])
        let arguments: [any SQLBindable] = (owner.map { [$0.id] } ?? []) + (cutoff.map { [$0] } ?? [])
        return Statement(sql: "SELECT a.id FROM assets a WHERE " + conditions.joined(separator: " AND "), arguments: arguments)
    }

    /// Assets whose file name, camera, place or words read contain any of `terms`, in any case,
    /// found through the index of their words (PostgreSQL's on the expression its condition
    /// reads, which on SQLite reads each row's words). SQLite's trigram index finds phrases of
    /// three characters or more; a shorter one is looked for in the index's own text, row by row.
    private static func matching(_ terms: [String], dialect: SQLDialect) -> (String, [any SQLBindable]) {
        switch dialect {
        case .postgreSQL:
            return containing(terms, in: "lower(\(LibrarySchema.searchedWords(of: "a")))")
        case .sqlite where terms.allSatisfy({ $0.unicodeScalars.count >= 3 }):
            return ("a.search_rowid IN (\(indexedWords))", [phrases(terms)])
        case .sqlite:
            let (condition, patterns) = containing(terms, in: "lower(words)")
            return ("a.search_rowid IN (SELECT rowid FROM asset_search WHERE \(condition))", patterns)
        }
    }

    /// The rows of SQLite's index of words that match the phrases bound to it.
    private static let indexedWords = "SELECT rowid FROM asset_search WHERE asset_search MATCH ?"

    /// FTS5's query for any of `terms`, each a phrase.
    private static func phrases(_ terms: [String]) -> String {
        terms.map { "\"" + Library.escaping($0, ["\"": "\"\""]) + "\"" }.joined(separator: " OR ")
    }

    /// `text` (SQL, in lower case) contains any of `terms`.
    private static func containing(_ terms: [String], in text: String) -> (String, [any SQLBindable]) {
        let condition = terms.map { _ in "\(text) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ")
        return ("(\(condition))", terms.map { "%" + Library.likeEscaped($0.lowercased()) + "%" })
    }
}
