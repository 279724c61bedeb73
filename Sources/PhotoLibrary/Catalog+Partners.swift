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

    /// Shows a library `sharer` shares with `owner` inside `owner`'s own Library view, or apart
    /// again: the partner's choice.
    public func showPartner(_ sharer: Owner, inLibraryOf owner: Owner, _ shown: Bool) async throws(LibraryError) {
        let changed = try await write { connection throws(StorageError) in
            try connection.run("UPDATE partners SET in_timeline = ? WHERE owner_id = ? AND partner_id = ?", [shown, sharer.id, owner.id])
        }
        guard changed > 0 else { throw LibraryError(.notFound, "That library is not shared with you.") }
    }

    /// The people whose shared library `owner` shows inside their own.
    public func partnersShown(in owner: Owner) async throws(LibraryError) -> [Owner] {
        try await read { connection throws(StorageError) in
            try connection.query(Self.shownPartners, [owner.id]).map { row throws(StorageError) in Owner(id: try row.integer("owner_id")) }
        }
    }

    /// Those whose library a person (`?`) shows in their own: from the partners' index by partner.
    package static let shownPartners = "SELECT owner_id FROM partners WHERE partner_id = ? AND in_timeline ORDER BY owner_id"

    /// The libraries a listing merges with `owner`'s own: those they show in it, for the
    /// Library view as they see it; none for anything else.
    func partnersShown(_ query: AssetQuery, _ owner: Owner) async throws(LibraryError) -> [Owner] {
        guard query.withPartners, query.collection == .library else { return [] }
        return try await partnersShown(in: owner)
    }

    /// Whether `sharer` shares their library with `partner`, as a transaction sees it.
    static func shares(_ sharer: Owner, with partner: Owner, _ connection: any SQLConnection) throws(StorageError) -> Bool {
        try !connection.query("SELECT 1 FROM partners WHERE owner_id = ? AND partner_id = ?", [sharer.id, partner.id]).isEmpty
    }

    /// A page of the library `sharer` shares with `owner`, as `assets(_:owner:)` lists it for its
    /// owner: the library proper alone (its albums, favourites and trash are theirs).
    public func partnerAssets(_ query: AssetQuery, of sharer: Owner, for owner: Owner) async throws(LibraryError) -> AssetPage {
        try await requirePartnerLibrary(query, sharer, owner)
        return try await assets(query.alone, owner: sharer)
    }

    /// The days of that library, as `days(_:owner:)` counts them.
    public func partnerDays(_ query: AssetQuery, of sharer: Owner, for owner: Owner) async throws(LibraryError) -> [DayCount] {
        try await requirePartnerLibrary(query, sharer, owner)
        return try await days(query.alone, owner: sharer)
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

extension AssetQuery {
    /// The query of one library alone: a partner's library is seen without the ones its owner
    /// shows in it.
    var alone: AssetQuery {
        var query = self
        query.withPartners = false
        return query
    }
}
