import Storage

extension Catalog {
    /// The record `name` that every server over this library's database shares (the key picked
    /// items' links are signed with): the one stored, or `offered` when there is none yet. Servers
    /// asking at the same moment all get the first one stored, whichever it was.
    public func sharedRecord(_ name: String, orElse offered: String) async throws(LibraryError) -> String {
        try await write { connection throws(StorageError) -> String in
            try connection.run("INSERT INTO shared_records (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING", [name, offered])
            guard let row = try connection.query("SELECT value FROM shared_records WHERE name = ?", [name]).first else {
                throw StorageError(.database, "A shared record vanished as it was stored.")
            }
            return try row.text("value")
        }
    }
}
