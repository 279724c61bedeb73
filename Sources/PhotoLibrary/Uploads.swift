import Digests
import Executors
public import Foundation
import Storage

/// Resumable uploads: a row says how far each got, the partial-upload store keeps its pieces.
/// A piece counts once it is kept and its row says so, in that order, so every offset a client
/// was told survives a crash of the server; bytes a crash kept past the row's offset are never
/// counted. Pieces between checkpoints (`Options.uploadCheckpoint`) are kept in the machine's
/// cache, and a restart of the machine takes the upload back to its last checkpoint. When
/// the last byte is in, the pieces become one file in the work folder and go through the same
/// import as a one-request upload; the row keeps the outcome until it expires.
public final class Uploads: FileWorking {
    let stores: LibraryStores
    let ingest: Ingest
    /// The pieces of resumable uploads still coming in.
    let partialUploads: any PartialUploadStore
    /// One request at a time changes an upload, on this server (across servers its row decides).
    let locks = KeyedLock<String>()
    /// Pieces written, fsynced and assembled.
    let lane: BlockingExecutor<Void>

    init(_ stores: LibraryStores, ingest: Ingest, partialUploads: any PartialUploadStore) {
        self.stores = stores
        self.ingest = ingest
        self.partialUploads = partialUploads
        lane = BlockingExecutor(name: "uploads", threads: 2)
    }

    public func createUpload(_ new: NewUpload) async throws(LibraryError) -> Upload {
        if let length = new.length { try checkLength(length) }
        let id = Library.newID()
        let now = Date()
        let live = liveSince(now)
        let quota = options.openUploadsPerClient
        let opened = try await write { connection throws(StorageError) -> Bool in
            let open = try connection.query(
                "SELECT count(*) AS open FROM uploads WHERE client = ? AND state = 'receiving' AND updated_at > ?", [new.client, live])
            guard try (open.first?.integer("open") ?? 0) < quota else { return false }
            try connection.run(
                """
                INSERT INTO uploads (id, length, original_filename, source, save_to_camera_roll, client, state, updated_at, owner_id)
                VALUES (?, ?, ?, ?, ?, ?, 'receiving', ?, ?)
                """,
                [
                    id, new.length, new.originalFilename.flatMap(PortableFilename.kept), new.source.rawValue, new.saveToCameraRoll,
                    new.client, now.timeIntervalSince1970, new.owner.id,
                ])
            return true
        }
        guard opened else {
            throw LibraryError(.tooManyUploads, "There are \(quota) unfinished uploads from here already; finish or cancel some first.")
        }
        return try await upload(id, owner: new.owner)
    }

    /// The upload as its row has it, if it is `owner`'s (nil: anyone's). One whose bytes are all
    /// in but whose import did not finish is imported now, so that asking is enough to get the
    /// outcome after a crash.
    public func upload(_ id: String, owner: Owner?) async throws(LibraryError) -> Upload {
        let upload = try await uploadRow(id, owner: owner)
        guard case .importing = upload.state else { return upload }
        return try await locks.withLock(id) { () async throws(LibraryError) -> Upload in
            let again = try await uploadRow(id)
            guard case .importing = again.state else { return again }
            return try await finish(again)
        }
    }

    /// Adds a piece at `offset`, which must be where the upload is; the upload as it is after.
    /// `length` tells the whole size of an upload created without one, with any piece (the last
    /// at the latest, which may then be empty). The last piece makes it an asset: its state is
    /// `done`, or the import's refusal is thrown.
    public func appendToUpload(
        _ id: String, at offset: Int, piece: UploadPieceFile, length: Int? = nil, owner: Owner?
    ) async throws(LibraryError) -> Upload {
        do {
            return try await locks.withLock(id) { () async throws(LibraryError) -> Upload in
                try await append(piece, to: try await uploadRow(id, owner: owner), at: offset, length: length)
            }
        } catch {
            unlink(piece.path)
            throw error
        }
    }

    /// Deletes an upload and what it kept, whatever its state (tus' termination). A camera
    /// capture the upload made, which nobody has saved, goes with it: the client that ends its
    /// upload discards the capture (a recording the server finished by itself, idle, before its
    /// page said Use Video or Retake, or one cut short and sent again whole), and left in place it
    /// would only wait out its retention among the Captures Not Saved. An asset the upload found
    /// already there (a duplicate), or a capture saved since, stays.
    public func terminateUpload(_ id: String, owner: Owner?) async throws(LibraryError) {
        try await locks.withLock(id) { () async throws(LibraryError) in
            let upload = try await storedUploadRow(id, owner: owner)
            let deleted = try await write { [live = liveSince(Date())] connection throws(StorageError) in
                try connection.run("DELETE FROM uploads WHERE id = ? AND updated_at > ?", [id, live])
            }
            guard deleted == 1 else { throw Self.noSuchUpload }
            // A failure here leaves bytes no row names, which collection removes.
            try? await files { [partialUploads] () throws(StorageError) in try partialUploads.remove(upload: id) }
            guard upload.source == .camera, case .done(let made, duplicate: false) = upload.state,
                (try? await ingest.catalog.asset(made, owner: nil))?.isUnsaved == true
            else { return }
            // The upload is gone already, so this cannot be asked again: a capture that cannot be
            // deleted now waits out its retention instead.
            try? await ingest.deletePermanently(made)
        }
    }

    /// Deletes the rows of uploads past their expiry, then the bytes of every upload no row
    /// names (theirs, and those of uploads a crash or a failed removal left); how many rows went.
    /// A row is made before any byte is kept for it, so bytes without one are garbage.
    func expireUploads(now: Date) async throws(LibraryError) -> Int {
        let expired = try await write { [live = liveSince(now)] connection throws(StorageError) in
            try connection.run("DELETE FROM uploads WHERE updated_at <= ?", [live])
        }
        let stored = try await files { [partialUploads] () throws(StorageError) in try partialUploads.uploads() }
        let known = try await read { connection throws(StorageError) in
            Set(try connection.query("SELECT id FROM uploads").map { row throws(StorageError) in try row.text("id") })
        }
        for id in stored where !known.contains(id) {
            try? await files { [partialUploads] () throws(StorageError) in try partialUploads.remove(upload: id) }
        }
        return expired
    }

    /// Finishes uploads created without a length that nobody has added to for `idle`, with the
    /// bytes they have: a recording streamed while it was shot, whose page was closed or died
    /// before its last piece, becomes an asset of all but its last seconds. How many it finished.
    @discardableResult
    public func finishAbandonedStreams(idle: TimeInterval, now: Date = Date()) async throws(LibraryError) -> Int {
        let cutoff = now.addingTimeInterval(-idle).timeIntervalSince1970
        let abandoned = try await read { connection throws(StorageError) in
            try connection.query(
                "SELECT id, received FROM uploads WHERE length IS NULL AND state = 'receiving' AND received > 0 AND updated_at <= ?",
                [cutoff]
            ).map { row throws(StorageError) in (try row.text("id"), try row.integer("received")) }
        }
        var finished = 0
        for (id, received) in abandoned {
            let done = try await locks.withLock(id) { () async throws(LibraryError) -> Bool in
                // Taken back to its bytes on disk since it was seen (the machine restarted): the next look finishes that.
                guard try await uploadRow(id).offset == received else { return false }
                let claimed = try await write { connection throws(StorageError) in
                    // Only as it was when seen idle: a piece since, here or on another server, keeps it open.
                    try connection.run(
                        """
                        UPDATE uploads SET length = received, state = 'importing'
                        WHERE id = ? AND length IS NULL AND state = 'receiving' AND received = ? AND updated_at <= ?
                        """, [id, received, cutoff]) == 1
                }
                guard claimed else { return false }
                // A refusal is the outcome, kept in the row; a failure of ours is tried again on the next look.
                _ = try? await finish(try await uploadRow(id))
                return true
            }
            if done { finished += 1 }
        }
        return finished
    }

    /// Refuses (`tooLarge`) a length past the size limit, and a piece of `size` bytes at `offset`
    /// that would take an upload past its length (nil: not told yet) or past the limit. It needs
    /// nothing but its arguments, so a server asks it with the sizes a request's headers declare
    /// before it stores a byte of the piece; the library asks again with the bytes that came.
    public func checkFits(pieceAt offset: Int, size: Int, length: Int?) throws(LibraryError) {
        if let length, length > options.maxFileBytes {
            throw LibraryError(.tooLarge, "The file is larger than the \(options.maxFileBytes >> 20) MiB limit.")
        }
        guard offset + size <= length ?? options.maxFileBytes else {
            throw LibraryError(
                .tooLarge,
                length.map { "The piece goes past the upload's length of \($0) bytes." }
                    ?? "The upload grows past the \(options.maxFileBytes >> 20) MiB limit.")
        }
    }

    private func checkLength(_ length: Int) throws(LibraryError) {
        guard length > 0 else { throw LibraryError(.empty, "The file is empty.") }
        try checkFits(pieceAt: 0, size: 0, length: length)
    }

    private func append(_ piece: UploadPieceFile, to upload: Upload, at offset: Int, length declared: Int?) async throws(LibraryError)
        -> Upload
    {
        guard case .receiving = upload.state else {
            throw LibraryError(.uploadConflict, "The upload has all its bytes already.")
        }
        guard offset == upload.offset else {
            throw LibraryError(
                .uploadConflict, "The upload is at byte \(upload.offset), not \(offset); ask where it is and go on from there.")
        }
        if let declared {
            try checkLength(declared)
            guard upload.length == nil || upload.length == declared else {
                throw LibraryError(.invalidRequest, "The upload's length is \(upload.length ?? 0) bytes already.")
            }
        }
        let length = declared ?? upload.length
        let staged = try await files { [path = piece.path, hashing = piece.checksum?.isSHA256 ?? false] () throws(StorageError) in
            try StagedPiece(adopting: path, hashing: hashing)
        }
        let matches: Bool
        switch piece.checksum {
        case nil: matches = true
        case .sha256(let expected): matches = staged.sha256.map { Hex.bytes(Array($0.utf8)) } == expected
        case .sha1(let expected):
            let digest = try await files { () throws(StorageError) in try FileDigest.sha1(of: staged.path) }
            matches = Hex.bytes(Array(digest.utf8)) == expected
        }
        guard matches else {
            throw LibraryError(.checksumMismatch, "The piece's bytes do not match its checksum; send it again.")
        }
        try checkFits(pieceAt: offset, size: staged.size, length: length)
        let end = offset + staged.size
        let now = Date()
        let checkpoint = options.uploadCheckpoint
        let durably =
            end == length || end - upload.synced >= checkpoint.bytes || now.timeIntervalSince(upload.syncedAt) >= checkpoint.seconds
        let kept: KeptPiece?
        if staged.size > 0 {
            kept = try await files { [partialUploads] () throws(StorageError) in
                try partialUploads.keep(staged, upload: upload.id, offset: offset, durably: durably)
            }
        } else {
            // A piece without bytes changes nothing, unless it tells the length.
            await lane.run { [path = staged.path] in _ = unlink(path) }
            guard declared != nil && upload.length == nil else { return upload }
            kept = nil
        }
        // Where the disk is after this piece: all of it, or where it was, with the cache naming the rest.
        let onDisk = kept.map { $0.cachedIn == nil } ?? false
        let (synced, syncedAt, cachedIn) = onDisk ? (end, now, nil) : (upload.synced, upload.syncedAt, kept?.cachedIn ?? upload.cachedIn)
        // A row that counts bytes in the cache need not be on disk before them.
        let counted = try await write(onDisk ? .durable : .cached) { connection throws(StorageError) in
            // Only from the offset this request saw: a server that took another piece for the same
            // offset in the meantime has counted that one.
            let changed = try connection.run(
                """
                UPDATE uploads SET received = ?, length = ?, updated_at = ?, synced = ?, synced_at = ?, cached_in = ?,
                    state = CASE WHEN ? = ? THEN 'importing' ELSE state END
                WHERE id = ? AND received = ? AND state = 'receiving'
                """,
                [end, length, now.timeIntervalSince1970, synced, syncedAt.timeIntervalSince1970, cachedIn, end, length, upload.id, offset])
            guard changed == 1 else { return false }
            if let kept {
                try connection.run(
                    "INSERT INTO upload_pieces (upload_id, start, size, name) VALUES (?, ?, ?, ?)",
                    [upload.id, offset, staged.size, kept.name])
            }
            return true
        }
        guard counted else {
            throw LibraryError(.uploadConflict, "Another request brought these bytes first; ask where the upload is and go on from there.")
        }
        let after = try await uploadRow(upload.id)
        guard case .importing = after.state else { return after }
        return try await finish(after)
    }

    /// Imports an upload whose bytes are all in, and keeps the outcome in its row. A refusal is
    /// the outcome too (and thrown); a failure of ours leaves the row for another try.
    private func finish(_ upload: Upload) async throws(LibraryError) -> Upload {
        let pieces = try await pieces(of: upload)
        let file = try await files { [partialUploads, staging] () throws(StorageError) in
            try partialUploads.assemble(upload: upload.id, pieces: pieces, size: upload.offset, in: staging)
        }
        let outcome: Result<ImportResult, LibraryError>
        do throws(LibraryError) {
            outcome = .success(
                try await ingest.importUpload(
                    temporaryFile: file, originalFilename: upload.originalFilename, source: upload.source,
                    saveToCameraRoll: upload.saveToCameraRoll, owner: upload.owner))
        } catch  where error.refusesTheFile {
            outcome = .failure(error)
        }
        try await write { connection throws(StorageError) in
            switch outcome {
            case .success(let result):
                try connection.run(
                    "UPDATE uploads SET state = 'done', asset_id = ?, duplicate = ? WHERE id = ? AND state = 'importing'",
                    [result.asset.id, result.isDuplicate, upload.id])
            case .failure(let error):
                try connection.run(
                    "UPDATE uploads SET state = 'refused', error_code = ?, error_message = ? WHERE id = ? AND state = 'importing'",
                    [error.code.description, error.message, upload.id])
            }
            try connection.run("DELETE FROM upload_pieces WHERE upload_id = ?", [upload.id])
        }
        try? await files { [partialUploads] () throws(StorageError) in try partialUploads.remove(upload: upload.id) }
        _ = try outcome.get()
        return try await uploadRow(upload.id)
    }

    private func pieces(of upload: Upload) async throws(LibraryError) -> [UploadPiece] {
        try await read { connection throws(StorageError) in
            try connection.query("SELECT start, size, name FROM upload_pieces WHERE upload_id = ? ORDER BY start", [upload.id]).map {
                row throws(StorageError) in
                UploadPiece(offset: try row.integer("start"), size: try row.integer("size"), name: try row.text("name"))
            }
        }
    }

    /// The upload as its row has it, once pieces the row counts but a restart of the machine may
    /// have lost are taken back: from then on the upload is where its bytes are sure to be.
    private func uploadRow(_ id: String, owner: Owner? = nil) async throws(LibraryError) -> Upload {
        let upload = try await storedUploadRow(id, owner: owner)
        guard let boot = upload.cachedIn, upload.state == .receiving || upload.state == .importing, !partialUploads.stillCached(boot)
        else { return upload }
        try await write { connection throws(StorageError) in
            let changed = try connection.run(
                """
                UPDATE uploads SET received = synced, state = 'receiving', cached_in = NULL
                WHERE id = ? AND cached_in = ? AND received = ? AND state IN ('receiving', 'importing')
                """, [id, boot, upload.offset])
            if changed == 1 { try connection.run("DELETE FROM upload_pieces WHERE upload_id = ? AND start >= ?", [id, upload.synced]) }
        }
        return try await storedUploadRow(id)
    }

    /// The upload's row, if it is `owner`'s (nil: anyone's): another's is no such upload.
    private func storedUploadRow(_ id: String, owner: Owner? = nil) async throws(LibraryError) -> Upload {
        let row = try await read { [live = liveSince(Date())] connection throws(StorageError) in
            try connection.query("SELECT * FROM uploads WHERE id = ? AND updated_at > ?", [id, live]).first
        }
        guard let row else { throw Self.noSuchUpload }
        let upload = try await storage { [expiry = options.uploadExpiry] () throws(StorageError) in try Upload(row: row, expiry: expiry) }
        guard owner.map({ $0 == upload.owner }) ?? true else { throw Self.noSuchUpload }
        return upload
    }

    /// The oldest last piece (`updated_at`) of an upload that has not expired at `now`.
    private func liveSince(_ now: Date) -> Double { now.timeIntervalSince1970 - options.uploadExpiry }

    private static let noSuchUpload = LibraryError(.notFound, "There is no such upload; it may have expired or been cancelled.")
}

extension LibraryError {
    /// Whether the import refused the file itself (for good), as opposed to failing on our side.
    var refusesTheFile: Bool {
        [.unsupportedType, .tooLarge, .truncated, .corrupt, .empty, .invalidRequest, .timeout].contains(code)
    }
}

extension Upload {
    init(row: Row, expiry: TimeInterval) throws(StorageError) {
        id = try row.text("id")
        length = try row.optionalInteger("length")
        offset = try row.integer("received")
        synced = try row.integer("synced")
        syncedAt = Date(timeIntervalSince1970: try row.real("synced_at"))
        cachedIn = try row.optionalText("cached_in")
        originalFilename = try row.optionalText("original_filename")
        source = AssetSource(rawValue: try row.text("source")) ?? .upload
        saveToCameraRoll = try row.flag("save_to_camera_roll")
        owner = Owner(id: try row.integer("owner_id"))
        expires = Date(timeIntervalSince1970: try row.real("updated_at") + expiry)
        switch try row.text("state") {
        case "receiving": state = .receiving
        case "importing": state = .importing
        case "done": state = .done(assetID: try row.text("asset_id"), duplicate: try row.flag("duplicate"))
        default:
            state = .refused(
                LibraryError(
                    LibraryError.Code(stored: try row.optionalText("error_code") ?? "corrupt"), try row.optionalText("error_message") ?? "")
            )
        }
    }
}
