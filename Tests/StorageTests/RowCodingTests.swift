import Foundation
import Storage
import TestSupport
import Testing

/// A record's row spelled once by its type: written and read back through a real SQLite
/// database, and read strictly.
@Suite struct RowCodingTests {
    enum Kind: String, Codable { case still, moving }

    struct Lens: RowColumns, Equatable {
        var lensModel: String?
        var fNumber: Double?
    }

    struct Note: JSONColumn, Equatable {
        static let columnDescription = "a note"
        var words: [String]
    }

    struct Item: RowRecord, Equatable {
        static let columnNames = ["isHidden": "hidden"]
        static let computedColumns: Set = ["album_count"]

        var id: String
        var kind: Kind
        var byteSize: Int
        var hasGPS: Bool
        var isHidden: Bool
        var duration: Double?
        var lens: Lens
        var note: Note?
        var albumCount: Int
    }

    static let migrations = [
        Migration(
            "0001-items",
            """
            CREATE TABLE items (
                id TEXT PRIMARY KEY, kind TEXT NOT NULL, byte_size INTEGER NOT NULL, has_gps INTEGER NOT NULL, hidden INTEGER NOT NULL,
                duration REAL, lens_model TEXT, f_number REAL, note TEXT, sort_key TEXT NOT NULL
            )
            """)
    ]

    let directory = TemporaryDirectory("row-coding")

    func database() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: directory.file("items.sqlite"), migrations: Self.migrations)
    }

    static let item = Item(
        id: "a", kind: .moving, byteSize: 1 << 40, hasGPS: true, isHidden: false, duration: 2.5,
        lens: Lens(lensModel: "iPhone back camera", fNumber: 1.8), note: Note(words: ["é", "\"quoted\""]), albumCount: 0)

    @Test func aRecordComesBackAsItWasWritten() async throws {
        let database = try database()
        let bare = Item(
            id: "b", kind: .still, byteSize: 1, hasGPS: false, isHidden: true, duration: nil, lens: Lens(), note: nil, albumCount: 0)
        let read = try await database.write { connection throws(StorageError) -> [Item] in
            #expect(try connection.insert(Self.item, into: "items", adding: [("sort_key", "2")]) == 1)
            try connection.insert(bare, into: "items", adding: [("sort_key", "1")])
            #expect(try connection.insert(bare, into: "items", adding: [("sort_key", "1")], ignoringConflicts: true) == 0)
            let rows = try connection.query("SELECT *, 0 AS album_count FROM items ORDER BY sort_key DESC")
            let each = try rows.map { row throws(StorageError) in try row.decode(Item.self) }
            #expect(try rows.decode(Item.self) == each, "a batch reads each row as it is read alone")
            return each
        }
        #expect(read == [Self.item, bare])
        let raw = try await database.read { connection throws(StorageError) in
            try connection.query("SELECT has_gps, hidden, lens_model, note FROM items WHERE id = 'a'")[0]
        }
        #expect(raw["has_gps"] == .integer(1) && raw["hidden"] == .integer(0))
        #expect(raw["lens_model"] == .text("iPhone back camera"))
        #expect(raw["note"] == .text(#"{"words":["é","\"quoted\""]}"#))
    }

    @Test(
        arguments: [
            (["kind": .text("flat")], "kind names nothing this version knows"),
            (["byte_size": .text("big")], "byte_size is not an integer"),
            (["byte_size": .null], "byte_size is empty"),
            (["has_gps": .integer(2)], "has_gps is neither 0 nor 1"),
            (["note": .text("{")], "note is not a note"),
            (["duration": .text("long")], "duration is not a number"),
        ] as [([String: SQLValue], String)])
    func aDamagedRowIsAnError(change: [String: SQLValue], problem: String) throws {
        var columns: [String: SQLValue] = [
            "id": .text("a"), "kind": .text("still"), "byte_size": .integer(3), "has_gps": .integer(0), "hidden": .integer(1),
            "duration": .null, "lens_model": .null, "f_number": .null, "note": .null, "album_count": .integer(0),
        ]
        #expect(throws: Never.self) { try Row(columns: columns).decode(Item.self) }
        columns.merge(change) { $1 }
        let error = #expect(throws: StorageError.self) { try Row(columns: columns).decode(Item.self) }
        #expect(error?.code == .corruptRow && error?.message == "A row of the library is damaged: its column \(problem).")
    }

    /// A missing column is damage even for an optional field: it is never read as NULL.
    @Test(arguments: ["duration", "lens_model", "album_count", "id"]) func aMissingColumnIsAnError(column: String) throws {
        var columns: [String: SQLValue] = [
            "id": .text("a"), "kind": .text("still"), "byte_size": .integer(3), "has_gps": .integer(0), "hidden": .integer(1),
            "duration": .null, "lens_model": .null, "f_number": .null, "note": .null, "album_count": .integer(0),
        ]
        columns[column] = nil
        let error = #expect(throws: StorageError.self) { try Row(columns: columns).decode(Item.self) }
        #expect(error?.code == .corruptRow && error?.message == "A row of the library is damaged: its column \(column) is missing.")
    }
}
