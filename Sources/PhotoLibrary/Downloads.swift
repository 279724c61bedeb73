import Digests
import Executors
public import Foundation
import Storage

extension Library {
    /// How long a download can be fetched after it was asked for.
    public static let downloadLifetime: TimeInterval = 3600
}

/// Downloads of many items at once, as one ZIP archive of their originals: a selection is kept
/// in the database for an hour (any server of the library may send it), and the archive is made
/// while it is sent, its size known from the start. Originals are read on its own lane.
public final class Downloads: FileWorking {
    let stores: LibraryStores
    let lane: BlockingExecutor<Void>

    init(_ stores: LibraryStores) {
        self.stores = stores
        lane = BlockingExecutor(name: "downloads", threads: 2)
    }

    /// How much of an original one read brings: about what the archive's writer hands over at once.
    static let downloadChunk = 1 << 20

    /// Keeps a download of the assets `ids` names, in that order, for `downloadLifetime`: each
    /// one's original, and after a Live Photo's still its movie. Every id must name a different
    /// asset (`maxBatch` at most) that is not in the trash, nor the movie of a Live Photo (which
    /// is part of its still), all of them `owner`'s or shared with them; otherwise nothing is kept.
    public func createDownload(of ids: [String], owner: Owner, now: Date = Date()) async throws(LibraryError) -> Download {
        try Library.requireBatch(ids)
        let found = try await assetsByID(ids, owner: owner)
        let items = ids.compactMap { found[$0] }.filter { $0.trashedDate == nil && $0.livePhotoStill == nil }
        guard items.count == ids.count else {
            throw LibraryError(.notFound, "\(ids.count - items.count) of the items are not in the library (deleted, or in the trash).")
        }
        let movies = try await assetsByID(items.compactMap(\.livePhotoMovie), owner: owner).filter { $0.value.trashedDate == nil }
        let files = items.flatMap { item in [item] + (item.livePhotoMovie.flatMap { movies[$0] }.map { [$0] } ?? []) }
        let token = Hex.text((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let day = now.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
        let download = Download(token: token, filename: "CameraRoll \(day).zip", assets: files)
        try await write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO downloads (token, filename, asset_ids, expires, owner_id) VALUES (?, ?, ?, ?, ?)",
                [
                    token, download.filename, files.map(\.id).joined(separator: " "),
                    now.addingTimeInterval(Library.downloadLifetime).timeIntervalSince1970, owner.id,
                ])
        }
        return download
    }

    /// The download a token of `owner`'s names, with its files as they are now: not found once it
    /// has expired, or if any of them has been deleted or trashed since (its archive would no
    /// longer be the one announced).
    public func download(_ token: String, owner: Owner, now: Date = Date()) async throws(LibraryError) -> Download {
        let gone = LibraryError(.notFound, "There is no download at this address; a download lasts an hour.")
        guard Hex.bytes(token.utf8)?.count == 16 else { throw gone }
        let row = try await read { connection throws(StorageError) -> (filename: String, ids: String)? in
            guard
                let row = try connection.query(
                    "SELECT filename, asset_ids FROM downloads WHERE token = ? AND owner_id = ? AND expires > ?",
                    [token, owner.id, now.timeIntervalSince1970]
                ).first
            else { return nil }
            return (try row.text("filename"), try row.text("asset_ids"))
        }
        guard let row else { throw gone }
        let ids = row.ids.split(separator: " ").map(String.init)
        let found = try await assetsByID(ids, owner: owner)
        let files = ids.compactMap { found[$0] }.filter { $0.trashedDate == nil }
        guard files.count == ids.count else {
            throw LibraryError(
                .notFound, "Items of this download have been deleted, moved to the trash or no longer shared since; select them again.")
        }
        return Download(token: token, filename: row.filename, assets: files)
    }

    /// Writes a download's archive to `sink`, every byte in order, in chunks of about a MiB;
    /// returns early once `sink` takes no more. Originals are read (fetched to this machine
    /// first from a bucket) and their CRCs computed on this part's lane, a chunk at a time.
    public func write(_ download: Download, to sink: ([UInt8]) async -> Bool) async throws(LibraryError) {
        let layout = download.layout
        // Headers wait to go out in front of the next bytes of a file.
        var pending: [UInt8] = []
        var crcs: [UInt32] = []
        for (index, item) in download.files.enumerated() {
            pending += layout.localHeader(index)
            let file: ReadOnlyFile
            if let copy = item.copy {
                file = copy.file
            } else {
                let path = try await original(of: item.asset)
                file = try await lane.run { () throws(LibraryError) in try ReadOnlyFile(path) }
            }
            var crc = CRC32()
            var offset = 0
            while offset < item.size {
                let count = min(item.size - offset, max(Self.downloadChunk - pending.count, Self.downloadChunk / 2))
                let (chunk, sum) = try await lane.run { [pending, crc, offset] () throws(LibraryError) -> ([UInt8], CRC32) in
                    var crc = crc
                    return (try file.read(count, at: offset, after: pending, crc: &crc), crc)
                }
                guard await sink(chunk) else { return }
                pending = []
                crc = sum
                offset += count
            }
            pending += layout.dataDescriptor(index, crc: crc.value)
            crcs.append(crc.value)
        }
        pending += layout.trailer(crcs: crcs)
        for start in stride(from: 0, to: pending.count, by: Self.downloadChunk) {
            guard await sink(Array(pending[start..<min(start + Self.downloadChunk, pending.count)])) else { return }
        }
    }

    /// An archive made on the spot of what a caller vouches for (a shared link's items, which
    /// the link's own checks let through, not a selection kept for an hour): each asset's
    /// original, or the copy given for it (a JPEG or a movie without its location), whose
    /// byte count is read here.
    public func archive(named filename: String, of items: [(asset: Asset, copy: Derivative?)]) async throws(LibraryError) -> Download {
        var files: [Download.File] = []
        for (asset, copy) in items {
            guard let copy else {
                files.append(Download.File(asset: asset, copy: nil))
                continue
            }
            let (file, size) = try await lane.run { () throws(LibraryError) in
                let file = try ReadOnlyFile(copy.path)
                return (file, try file.size())
            }
            let format: AssetFormat =
                copy.mimeType == "video/mp4" ? .movie(.mp4) : copy.mimeType == "image/jpeg" ? .image(.jpeg) : asset.format
            files.append(Download.File(asset: asset, copy: Download.File.Copy(file: file, format: format, size: size)))
        }
        return Download(token: "", filename: filename, files: files)
    }

    /// Forgets the downloads whose time is up; how many.
    func expireDownloads(now: Date) async throws(LibraryError) -> Int {
        try await write { connection throws(StorageError) in
            try connection.run("DELETE FROM downloads WHERE expires <= ?", [now.timeIntervalSince1970])
        }
    }

    /// The assets of `owner`'s that `ids` names, by id, as one read finds them.
    /// The assets of `ids` that `owner` may see: theirs, and those shared with them
    /// (`Catalog.isVisible`).
    private func assetsByID(_ ids: [String], owner: Owner) async throws(LibraryError) -> [String: Asset] {
        guard !ids.isEmpty else { return [:] }
        let sql = "SELECT \(Asset.columns(of: owner)) FROM assets a WHERE a.id IN (\(Library.placeholders(ids.count)))"
        let assets = try await read { connection throws(StorageError) in
            var visible: [Asset] = []
            for asset in try Asset.all(connection.query(sql, ids)) where try Catalog.isVisible(asset, to: owner, connection) {
                visible.append(asset)
            }
            return visible
        }
        return Dictionary(assets.map { ($0.id, $0) }) { first, _ in first }
    }
}
