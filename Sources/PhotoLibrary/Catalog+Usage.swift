import Storage

/// What each person's library holds (`owner_usage`, kept by triggers): the trash and unsaved
/// captures included, what a storage quota is measured against.
extension Catalog {
    /// The bytes of everything of `owner`'s.
    public func usage(owner: Owner) async throws(LibraryError) -> Int64 {
        try await read { connection throws(StorageError) in
            Int64(try connection.query("SELECT bytes FROM owner_usage WHERE owner_id = ?", [owner.id]).first?.integer("bytes") ?? 0)
        }
    }

    /// Everyone's, in one read (a row per person): nobody absent holds anything.
    public func usages() async throws(LibraryError) -> [Owner: Int64] {
        try await read { connection throws(StorageError) in
            var bytes: [Owner: Int64] = [:]
            for row in try connection.query("SELECT owner_id, bytes FROM owner_usage") {
                bytes[Owner(id: try row.integer("owner_id"))] = Int64(try row.integer("bytes"))
            }
            return bytes
        }
    }
}
