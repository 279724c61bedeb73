import Foundation
import Storage
import UTCTime
public import Vocabulary

extension Catalog {
    /// One asset by id, whatever its state (trashed and unsaved ones too), if it is `owner`'s:
    /// another person's is as absent as one that never was. nil asks for anyone's, for a caller
    /// who vouched for the id (a capability, a sweep, the operator at the command line).
    public func asset(_ id: String, owner: Owner?) async throws(LibraryError) -> Asset {
        let asset = try await read { connection throws(StorageError) in try Catalog.asset(id, connection) }
        guard let asset, owner.map({ $0 == asset.owner }) ?? true else {
            throw LibraryError(.notFound, "There is no asset with that id.")
        }
        return asset
    }

    /// An asset as a transaction sees it; nil when there is none with that id.
    static func asset(_ id: String, _ connection: any SQLConnection) throws(StorageError) -> Asset? {
        try connection.query("SELECT \(Asset.columns) FROM assets a WHERE a.id = ?", [id]).first.map { row throws(StorageError) in
            try Asset(row: row)
        }
    }

    /// One asset that is in the library: not in the trash, nor deleted. What a link given out (a
    /// picker's result) may still show; the trash is the owner's alone, and to the link's holder
    /// a trashed asset is as gone as a deleted one.
    public func assetInLibrary(_ id: String) async throws(LibraryError) -> Asset {
        let found = try await asset(id, owner: nil)
        guard found.trashedDate == nil else { throw LibraryError(.notFound, "There is no asset with that id.") }
        return found
    }

    /// A page of a collection of `owner`'s, newest first in its order. Trashed assets and unsaved
    /// captures are in no collection but their own views.
    public func assets(_ query: AssetQuery, owner: Owner) async throws(LibraryError) -> AssetPage {
        guard (1...AssetQuery.maxLimit).contains(query.limit) else {
            throw LibraryError(.invalidRequest, "limit: must be between 1 and \(AssetQuery.maxLimit).")
        }
        var cursor: Cursor?
        if let text = query.cursor {
            guard let decoded = Cursor(text) else { throw LibraryError(.invalidRequest, "cursor: not a cursor this server made.") }
            cursor = decoded
        }
        let listing = try Listing(
            try await owned(query, by: owner), owner: owner, partners: try await partnersShown(query, owner),
            synonyms: await geocoder.synonyms(of: query.search ?? ""), dialect: database.dialect)
        let (start, direction, limit) = (cursor, query.direction, query.limit + 1)
        let rows = try await read { connection throws(StorageError) in
            if let nearest = listing.pageInWindow(after: start, direction: direction, limit: limit) {
                let common = try listing.commonSearch.map { count throws(StorageError) in
                    try connection.query(count.sql, count.arguments).first?.integer("found") == Listing.common
                }
                if common ?? true {
                    let found = try connection.query(nearest.sql, nearest.arguments)
                    if found.count == limit { return found }
                }
            }
            let statement = listing.page(after: start, direction: direction, limit: limit)
            return try connection.query(statement.sql, statement.arguments)
        }
        let newer = query.direction == .newer
        let more = rows.count > query.limit
        let pageRows = newer ? Array(rows.prefix(query.limit).reversed()) : Array(rows.prefix(query.limit))
        do {
            let assets = try Asset.all(pageRows)
            // Their thumbnails are asked for next.
            assets.forEach(remember)
            let position = { (row: Row) throws(StorageError) in
                Cursor(key: try row.text(query.collection.orderColumn), id: try row.text("id")).encoded
            }
            // Past the older end only when it was read that way and found no more; a page read
            // newer always has older items after it (the cursor's own, at least).
            let hasOlder = newer ? cursor != nil : more
            let hasNewer = newer ? more : (cursor != nil || query.startingAt != nil)
            var days: [DayCount] = []
            for row in pageRows {
                let day = String(try row.text(query.collection.orderColumn).prefix(10))
                if days.last?.day == day { days[days.count - 1].count += 1 } else { days.append(DayCount(day: day, count: 1)) }
            }
            return AssetPage(
                assets: assets, nextCursor: hasOlder ? try pageRows.last.map(position) : nil,
                previousCursor: hasNewer ? try pageRows.first.map(position) : nil, days: days)
        } catch {
            throw LibraryError(error)
        }
    }

    /// How many assets a day holds in a collection, newest day first: what a timeline lays out
    /// (sections, scroll height, a scrubber) before any page is read. A day is the date of the
    /// collection's order column: a capture's as its camera's clock read it, an import's or a
    /// trashing's in UTC. A view's and an album's days are read from the counts kept as their
    /// items come and go; a search's and a filter's from their rows.
    public func days(_ query: AssetQuery, owner: Owner) async throws(LibraryError) -> [DayCount] {
        let statement = try Listing(
            try await owned(query, by: owner), owner: owner, partners: try await partnersShown(query, owner),
            synonyms: await geocoder.synonyms(of: query.search ?? ""), dialect: database.dialect
        ).days
        return try await read { connection throws(StorageError) in
            try connection.query(statement.sql, statement.arguments).map { row throws(StorageError) in
                DayCount(day: try row.text("day"), count: try row.integer("count"))
            }
        }
    }

    /// How many assets a source of `owner`'s holds, of the given media types: the sum of its days.
    public func count(
        _ source: LibrarySource, mediaTypes: Set<MediaType> = Set(MediaType.allCases), owner: Owner
    ) async throws(LibraryError) -> Int {
        try await days(AssetQuery(source: source, mediaTypes: mediaTypes), owner: owner).reduce(0) { $0 + $1.count }
    }

    /// The query with an album named as its row is: the person's own Camera Roll for
    /// `cameraRoll`, and any other album only when it is theirs (else it is not there). A
    /// Camera Roll not made yet lists nothing.
    func owned(_ query: AssetQuery, by owner: Owner) async throws(LibraryError) -> AssetQuery {
        guard case .album(let id) = query.collection else { return query }
        try await requireAlbum(id, owner: owner)
        var query = query
        query.collection = .album(Library.albumRow(id, of: owner))
        return query
    }

    /// The day counts made again from the rows, in a new file on PostgreSQL (TRUNCATE), as the
    /// migration made them, after rows written in bulk (a copy's album entries, a benchmark's
    /// clones). A big transaction updates each of its days' counts over and over, which on
    /// PostgreSQL leaves a dead version of the row each time (135 MB for 28,000 counts after a
    /// clone of a million); a library that grew import by import has a compact table, each
    /// update pruned in its page.
    func recountDays() async throws(LibraryError) {
        let dialect = database.dialect
        try await write { connection throws(StorageError) in
            try connection.execute(dialect == .postgreSQL ? "TRUNCATE day_counts" : "DELETE FROM day_counts")
            try connection.execute(LibrarySchema.everyDayCounted(.byOwnerAndListing))
        }
    }

}

extension Library {
    /// Text matched as itself inside a LIKE pattern.
    static func likeEscaped(_ text: String) -> String {
        escaping(text, ["\\": "\\\\", "%": "\\%", "_": "\\_"])
    }

    /// `text` with each scalar that `escapes` names replaced. String's own replacing compares
    /// characters, and a quote followed by a combining mark is one character that is not a
    /// quote: it would pass through unescaped.
    static func escaping(_ text: String, _ escapes: [Unicode.Scalar: String]) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if let replacement = escapes[scalar] { escaped += replacement } else { escaped.unicodeScalars.append(scalar) }
        }
        return escaped
    }

    /// The first day of the period after `YYYY-MM` or `YYYY-MM-DD`, as `YYYY-MM-DD`: a moment
    /// before it is in the period or earlier, on either engine (as text on SQLite, as a date on
    /// PostgreSQL); nil for text that is no such month or day (years 1 to 9998, so that the
    /// answer has four digits too).
    package static func periodAfter(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), (1...9998).contains(year), (1...12).contains(month)
        else { return nil }
        let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)
        guard parts.count == 3, let day = Int(parts[2]) else { return String(format: "%04d-%02d-01", nextYear, nextMonth) }
        let length = WrittenMoment.daysIn(month, of: year)
        guard (1...length).contains(day) else { return nil }
        return day < length
            ? String(format: "%04d-%02d-%02d", year, month, day + 1) : String(format: "%04d-%02d-01", nextYear, nextMonth)
    }

    /// Whether `text` is a moment as the library writes them (`timestamp`, a sort date): a day
    /// of the calendar and a time of day, `YYYY-MM-DDTHH:MM:SS`, then perhaps a fraction of up to
    /// six digits, then perhaps `Z`. A cursor a client sends back carries one, and PostgreSQL
    /// refuses anything else with an error of the database's where the client's is due.
    package static func isMoment(_ text: String) -> Bool {
        let written = { (ending: String) in WrittenMoment(text, separator: UInt8(ascii: "T"), ending: ending) }
        return (written("Z") ?? written("")).map { $0.isOnTheCalendar && $0.fraction.count <= 6 } ?? false
    }
}
