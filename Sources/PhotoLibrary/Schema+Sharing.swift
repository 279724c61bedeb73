import Storage

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

extension LibrarySchema {
    /// Links for people without an account (`share_links`): an album of its owner's or a list of
    /// their items (`share_link_assets`, in the order given, read a page at a time by position), until `expires` (seconds since
    /// 1970; nil for never), behind a password (its hash, as the server writes it) or not, and
    /// what its guests may do. Found by owner for their list; a guest's token names the id.
    /// An upload through a link names it (`assets.from_link`), kept when the link goes.
    static func shareLinks(_ dialect: SQLDialect) -> String {
        let (moment, flag) = dialect == .sqlite ? ("TEXT", "INTEGER") : ("timestamptz", "boolean")
        return """
            CREATE TABLE share_links (
                id TEXT PRIMARY KEY,
                owner_id INTEGER NOT NULL CHECK (owner_id > 0),
                album_id TEXT REFERENCES albums (id) ON DELETE CASCADE,
                created_at \(moment) NOT NULL,
                expires BIGINT,
                password TEXT,
                remove_location \(flag) NOT NULL,
                allow_download \(flag) NOT NULL,
                allow_upload \(flag) NOT NULL
            );
            CREATE INDEX share_links_by_owner ON share_links (owner_id, created_at);
            CREATE INDEX share_links_by_album ON share_links (album_id);
            CREATE TABLE share_link_assets (
                link_id TEXT NOT NULL REFERENCES share_links (id) ON DELETE CASCADE,
                asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                PRIMARY KEY (link_id, position)
            );
            CREATE INDEX share_link_assets_by_asset ON share_link_assets (asset_id, link_id);
            ALTER TABLE assets ADD COLUMN from_link TEXT;
            """
    }
}

extension LibrarySchema {
    /// A partner's choice to show a library shared with them inside their own (the Photos app's
    /// Library view) rather than apart: theirs to make, per library.
    static func partnersInTimeline(_ dialect: SQLDialect) -> String {
        "ALTER TABLE partners ADD COLUMN in_timeline \(dialect == .sqlite ? "INTEGER" : "boolean") NOT NULL DEFAULT FALSE"
    }
}
