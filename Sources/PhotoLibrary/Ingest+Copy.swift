import Storage

/// What copying a library into another did.
public struct CopyReport: Sendable, Equatable {
    public var assetsCopied = 0
    /// Assets the target had already: copied by an earlier run that was cut short, or the same
    /// bytes imported there too.
    public var assetsAlreadyThere = 0
    public var bytesCopied = 0
}

extension Ingest {
    /// Copies every album, asset (its row and its original) and album entry into `target`, whose
    /// stores may be others (the data folder's into PostgreSQL and S3, or back). What the target
    /// has already stays as it is, so a run that was cut short is simply run again. Each original
    /// is hashed on its way in and must be the bytes its row names; derivatives are not copied,
    /// the target makes its own.
    public func copyEverything(
        into target: Library, progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws(LibraryError) -> CopyReport {
        let target = target.ingest
        var report = CopyReport()
        // A Live Photo's still before its movie, which names it.
        let assets = try await read { connection throws(StorageError) in
            try connection.query("SELECT * FROM assets ORDER BY live_photo_of IS NOT NULL, id")
        }
        for (index, row) in assets.enumerated() {
            let (id, hash) = try Self.identity(of: row)
            if try await target.holds(id) {
                report.assetsAlreadyThere += 1
            } else if try await copy(row, id: id, hash: hash, into: target) {
                report.assetsCopied += 1
                report.bytesCopied += (try? row.integer("byte_size")) ?? 0
            } else {
                report.assetsAlreadyThere += 1
            }
            progress(index + 1, assets.count)
        }
        // Albums after the assets their covers name, and their entries last.
        try await copyRows("albums", into: target)
        try await copyRows("album_assets", into: target)
        // The entries went in as one transaction, each counted in its album's days on its way.
        try await target.catalog.recountDays()
        return report
    }

    private static func identity(of row: Row) throws(LibraryError) -> (String, String) {
        do {
            return (try row.text("id"), try row.text("blob_hash"))
        } catch {
            throw LibraryError(error)
        }
    }

    private func holds(_ id: String) async throws(LibraryError) -> Bool {
        try await read { connection throws(StorageError) in try !connection.query("SELECT 1 FROM assets WHERE id = ?", [id]).isEmpty }
    }

    /// One asset: its original staged in the target and checked against its hash, then the blob
    /// and the row, as an import stores them (`storeBlob`). False when the target had
    /// the row after all (another run, or the same bytes under another id).
    private func copy(_ row: Row, id: String, hash: String, into target: Ingest) async throws(LibraryError) -> Bool {
        let source = try await files { [blobs] () throws(StorageError) in try blobs.localFile(hash) }
        let staged = try await target.files { [staging = target.staging] () throws(StorageError) in try staging.stage(copying: source) }
        guard staged.hash == hash else {
            await target.discard(staged)
            throw LibraryError(.corrupt, "The original of asset \(id) is not the bytes its row names.")
        }
        let columns = Self.columns(of: row)
        do {
            return try await target.storeBlob(staged) { connection throws(StorageError) -> Bool in
                try connection.insert(columns, into: "assets", ignoringConflicts: true) == 1
            }
        } catch {
            await target.discard(staged)
            throw error
        }
    }

    /// Every row of `table` into the target's table, keeping those it has.
    private func copyRows(_ table: String, into target: Ingest) async throws(LibraryError) {
        let rows = try await read { connection throws(StorageError) in try connection.query("SELECT * FROM \(table)") }
        let insertions = rows.map(Self.columns)
        try await target.write { connection throws(StorageError) in
            for columns in insertions { try connection.insert(columns, into: table, ignoringConflicts: true) }
        }
    }

    /// A row's columns as they are, inserted unless the target has the row (or its unique
    /// values). The key of SQLite's search index is that database's own, made again by the target's.
    private static func columns(of row: Row) -> [(String, any SQLBindable)] {
        row.columnNames.filter { $0 != "search_rowid" }.map { ($0, row[$0]) }
    }
}
