import Foundation
import Storage

extension Library {
    /// One asset by id, whatever its state (trashed and unsaved ones too).
    public func asset(_ id: String) async throws(LibraryError) -> Asset {
        let row = try await read { connection throws(StorageError) in
            try connection.query("SELECT \(Asset.columns) FROM assets a WHERE a.id = ?", [id]).first
        }
        guard let row else { throw LibraryError(.notFound, "There is no asset with that id.") }
        do {
            return try Asset(row: row)
        } catch {
            throw LibraryError(error)
        }
    }

    /// One asset that is in the library: not in the trash, nor deleted. What a link given out (a
    /// picker's result) may still show; the trash is the owner's alone, and to the link's holder
    /// a trashed asset is as gone as a deleted one.
    public func assetInLibrary(_ id: String) async throws(LibraryError) -> Asset {
        let found = try await asset(id)
        guard found.trashedDate == nil else { throw LibraryError(.notFound, "There is no asset with that id.") }
        return found
    }

    /// A page of a source's assets, newest capture first. Trashed assets and unsaved captures
    /// are in no source.
    public func assets(_ query: AssetQuery) async throws(LibraryError) -> AssetPage {
        guard (1...AssetQuery.maxLimit).contains(query.limit) else {
            throw LibraryError(.invalidRequest, "limit: must be between 1 and \(AssetQuery.maxLimit).")
        }
        guard !query.mediaTypes.isEmpty else {
            throw LibraryError(.invalidRequest, "mediaTypes: name at least one media type.")
        }
        var cursor: Cursor?
        if let text = query.cursor {
            guard let decoded = Cursor(text) else { throw LibraryError(.invalidRequest, "cursor: not a cursor this server made.") }
            cursor = decoded
        }
        var (conditions, arguments) = Self.filter(query.source, query.mediaTypes)
        if let search = query.search, !search.isEmpty {
            guard search.count <= 100 else { throw LibraryError(.invalidRequest, "search: at most 100 characters.") }
            conditions.append(
                """
                (lower(coalesce(a.original_filename, '')) LIKE ? ESCAPE '\\'
                    OR lower(coalesce(a.camera_make, '') || ' ' || coalesce(a.camera_model, '')) LIKE ? ESCAPE '\\')
                """)
            let pattern = "%" + Self.likeEscaped(search.lowercased()) + "%"
            arguments += [pattern, pattern]
        }
        if let month = query.month {
            guard let after = Self.monthAfter(month) else { throw LibraryError(.invalidRequest, "month: a month as YYYY-MM.") }
            conditions.append("a.sort_date < ?")
            arguments.append(after)
        }
        if let kinds = query.kinds, kinds.count < AssetKind.all.count {
            // Of no kind at all, a filter that admits nothing lists nothing.
            let listed = AssetKind.all.filter(kinds.contains).map(\.condition)
            conditions.append(listed.isEmpty ? "1 = 0" : "(\(listed.joined(separator: " OR ")))")
        }
        if let cursor {
            conditions.append("(a.sort_date < ? OR (a.sort_date = ? AND a.id < ?))")
            arguments += [cursor.sortDate, cursor.sortDate, cursor.id]
        }
        let sql = """
            SELECT \(Asset.columns) FROM assets a WHERE \(conditions.joined(separator: " AND "))
            ORDER BY a.sort_date DESC, a.id DESC LIMIT ?
            """
        arguments.append(query.limit + 1)
        let bound = arguments
        let rows = try await read { connection throws(StorageError) in try connection.query(sql, bound) }
        let pageRows = rows.prefix(query.limit)
        do {
            let assets = try pageRows.map { row throws(StorageError) in try Asset(row: row) }
            var next: String?
            if rows.count > query.limit, let last = pageRows.last {
                next = Cursor(sortDate: try last.text("sort_date"), id: try last.text("id")).encoded
            }
            return AssetPage(assets: assets, nextCursor: next)
        } catch {
            throw LibraryError(error)
        }
    }

    /// How many assets a source holds, of the given media types.
    public func count(_ source: LibrarySource, mediaTypes: Set<MediaType> = Set(MediaType.allCases)) async throws(LibraryError) -> Int {
        let (conditions, arguments) = Self.filter(source, mediaTypes)
        return try await read { connection throws(StorageError) in
            let sql = "SELECT count(*) AS count FROM assets a WHERE \(conditions.joined(separator: " AND "))"
            guard let row = try connection.query(sql, arguments).first else { throw StorageError(.database, "A count gave no row.") }
            return try row.integer("count")
        }
    }

    /// Text matched as itself inside a LIKE pattern.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// The start of the month after `YYYY-MM`, as sort dates are written (`YYYY-MM`, which sorts
    /// after every date of the month before and before every one of its own); nil for text
    /// that is no such month (years 1 to 9998, so that the answer has four digits too).
    package static func monthAfter(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), (1...9998).contains(year), (1...12).contains(month)
        else { return nil }
        let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)
        return String(format: "%04d-%02d", nextYear, nextMonth)
    }

    /// The conditions that make up a source, as SQL over `assets a`.
    private static func filter(_ source: LibrarySource, _ mediaTypes: Set<MediaType>) -> ([String], [any SQLBindable]) {
        var conditions = ["a.trashed_at IS NULL", "a.live_photo_of IS NULL"]
        switch source {
        case .photoLibrary: conditions.append("a.unsaved = 0")
        case .savedPhotosAlbum:
            conditions.append("a.id IN (SELECT asset_id FROM album_assets WHERE album_id = 'cameraRoll')")
        }
        let types = MediaType.allCases.filter(mediaTypes.contains)
        conditions.append("a.media_type IN (\(types.map { _ in "?" }.joined(separator: ", ")))")
        return (conditions, types.map(\.rawValue))
    }
}
