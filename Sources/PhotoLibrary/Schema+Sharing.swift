extension LibrarySchema {
    /// Albums shared with other people of the library: each member a viewer or an editor
    /// (`album_members`, found by member for their list of albums), and each entry the person
    /// who put it there (`added_by`; nil for the album's owner, as every entry before was).
    static let sharedAlbums = """
        CREATE TABLE album_members (
            album_id TEXT NOT NULL REFERENCES albums (id) ON DELETE CASCADE,
            member_id INTEGER NOT NULL CHECK (member_id > 0),
            role TEXT NOT NULL CHECK (role IN ('viewer', 'editor')),
            PRIMARY KEY (album_id, member_id)
        );
        CREATE INDEX album_members_by_member ON album_members (member_id, album_id);
        ALTER TABLE album_assets ADD COLUMN added_by INTEGER;
        """
}

extension LibrarySchema {
    /// Partners: a person who shares their whole library (`owner_id`) with another
    /// (`partner_id`), who sees it apart. Found by the partner, for what is shared with them.
    static let partners = """
        CREATE TABLE partners (
            owner_id INTEGER NOT NULL CHECK (owner_id > 0),
            partner_id INTEGER NOT NULL CHECK (partner_id > 0 AND partner_id <> owner_id),
            PRIMARY KEY (owner_id, partner_id)
        );
        CREATE INDEX partners_by_partner ON partners (partner_id, owner_id);
        """
}
