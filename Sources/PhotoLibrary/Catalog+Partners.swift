import Storage

extension Catalog {
    /// Shares `owner`'s whole library with `partner`, to see, never to change: the library
    /// proper, not their trash nor their unsaved captures.
    public func sharePartner(owner: Owner, with partner: Owner) async throws(LibraryError) {
        guard partner != owner else { throw LibraryError(.invalidRequest, "A library is its owner's already.") }
        try await write { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO partners (owner_id, partner_id) VALUES (?, ?) ON CONFLICT (owner_id, partner_id) DO NOTHING",
                [owner.id, partner.id])
        }
    }

    /// Ends a sharing: its sharer ends it, or the partner lets it go.
    public func unsharePartner(sharer: Owner, partner: Owner) async throws(LibraryError) {
        let removed = try await write { connection throws(StorageError) in
            try connection.run("DELETE FROM partners WHERE owner_id = ? AND partner_id = ?", [sharer.id, partner.id])
        }
        guard removed > 0 else { throw LibraryError(.notFound, "That library is not shared with that person.") }
    }

    /// The people `owner` shares their library with.
    public func partners(sharedBy owner: Owner) async throws(LibraryError) -> [Owner] {
        try await read { connection throws(StorageError) in
            try connection.query("SELECT partner_id FROM partners WHERE owner_id = ? ORDER BY partner_id", [owner.id]).map {
                row throws(StorageError) in Owner(id: try row.integer("partner_id"))
            }
        }
    }

    /// The people who share their library with `owner`.
    public func partners(sharingWith owner: Owner) async throws(LibraryError) -> [Owner] {
        try await read { connection throws(StorageError) in
            try connection.query("SELECT owner_id FROM partners WHERE partner_id = ? ORDER BY owner_id", [owner.id]).map {
                row throws(StorageError) in Owner(id: try row.integer("owner_id"))
            }
        }
    }

    /// Whether `sharer` shares their library with `partner`, as a transaction sees it.
    static func shares(_ sharer: Owner, with partner: Owner, _ connection: any SQLConnection) throws(StorageError) -> Bool {
        try !connection.query("SELECT 1 FROM partners WHERE owner_id = ? AND partner_id = ?", [sharer.id, partner.id]).isEmpty
    }

    /// A page of the library `sharer` shares with `owner`, as `assets(_:owner:)` lists it for its
    /// owner: the library proper alone (its albums, favourites and trash are theirs).
    public func partnerAssets(_ query: AssetQuery, of sharer: Owner, for owner: Owner) async throws(LibraryError) -> AssetPage {
        try await requirePartnerLibrary(query, sharer, owner)
        return try await assets(query, owner: sharer)
    }

    /// The days of that library, as `days(_:owner:)` counts them.
    public func partnerDays(_ query: AssetQuery, of sharer: Owner, for owner: Owner) async throws(LibraryError) -> [DayCount] {
        try await requirePartnerLibrary(query, sharer, owner)
        return try await days(query, owner: sharer)
    }

    /// Refuses a listing of another collection than the library proper, or of a library
    /// `sharer` does not share with `owner`.
    private func requirePartnerLibrary(_ query: AssetQuery, _ sharer: Owner, _ owner: Owner) async throws(LibraryError) {
        guard query.collection == .library else {
            throw LibraryError(.invalidRequest, "A library shared with you is seen whole: its albums and trash are its owner's.")
        }
        guard try await read({ connection throws(StorageError) in try Catalog.shares(sharer, with: owner, connection) }) else {
            throw LibraryError(.notFound, "That library is not shared with you.")
        }
    }
}
