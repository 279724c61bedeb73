import Foundation
public import Storage

/// The uploads still coming in to a library servers share: each piece is its own object,
/// `uploads/<id>/<offset>-<sha256>` (durable once stored), since the next piece may reach
/// another server. Two requests that bring the same offset at once each keep a piece of their
/// own (or the same one, for the same bytes) and the database counts one; a finished upload is
/// put together on the server that got its last piece, each piece checked against the hash its
/// name holds.
public struct S3PartialUploads: PartialUploadStore {
    public let client: S3Client
    private let partSize: Int

    public init(client: S3Client, partSize: Int = S3Client.defaultPartSize) {
        self.client = client
        self.partSize = max(partSize, S3Client.smallestPart)
    }

    private static func prefix(_ upload: String) -> String { "uploads/\(upload)/" }

    /// A stored object is durable, so every piece is: a bucket has no cache of ours to leave it in.
    public func keep(_ piece: StagedPiece, upload: String, offset: Int, durably: Bool) throws(StorageError) -> KeptPiece {
        let staged = try piece.hashed()
        let name = "\(offset)-\(staged.hash)"
        try client.put(Self.prefix(upload) + name, staged: staged, partSize: partSize)
        unlink(staged.path)
        return KeptPiece(name: name, cachedIn: nil)
    }

    public func stillCached(_ boot: String) -> Bool { true }

    public func assemble(upload: String, pieces: [UploadPiece], size: Int, in staging: StagingArea) throws(StorageError) -> String {
        let (path, descriptor) = try staging.makeTemporaryFile()
        close(descriptor)
        do throws(StorageError) {
            var ranges: [Range<Int>] = []
            for piece in pieces {
                guard piece.offset == ranges.last?.upperBound ?? 0, piece.size > 0 else {
                    throw StorageError(.corruptRow, "The pieces of an upload do not follow each other.", detail: upload)
                }
                try client.get(Self.prefix(upload) + piece.name, to: path, appending: true)
                ranges.append(piece.offset..<(piece.offset + piece.size))
            }
            guard ranges.last?.upperBound ?? 0 == size else {
                throw StorageError(.corruptRow, "The pieces of an upload fall short of its length.", detail: upload)
            }
            let digests = try FileDigest.sha256(of: path, parts: ranges)
            for (piece, digest) in zip(pieces, digests.parts) where !piece.name.hasSuffix("-\(digest)") {
                throw StorageError(.unavailable, "The object store gave other bytes than an upload's.", detail: piece.name)
            }
            return path
        } catch {
            unlink(path)
            throw error
        }
    }

    public func remove(upload: String) throws(StorageError) {
        for object in try client.list(prefix: Self.prefix(upload)) { try client.delete(object.key) }
    }

    public func uploads() throws(StorageError) -> [String] {
        Array(Set(try client.list(prefix: "uploads/").compactMap { $0.key.split(separator: "/").dropFirst().first.map(String.init) }))
    }
}
