import Foundation
import PhotoLibrary
import TestSupport
import Testing

@Suite struct LibrarySchemaTests {
    /// Databases in the field have run the shipped migrations, so their text never changes: one
    /// text now serves both engines, and SQLite's spelling of it must stay what shipped.
    @Test func theShippedSQLiteMigrationIsUnchanged() async throws {
        let digest = try await Executable.run(program: "/usr/bin/sha256sum", [], input: Data(LibrarySchema.sqlite[0].sql.utf8))
        #expect(digest.stdout.hasPrefix("f83a0f1bbe4e1f1caf0baeb1d96f5c0922a265857784b9011496dae90ea17b52"))
        #expect(LibrarySchema.sqlite.map(\.name) == LibrarySchema.postgreSQL.map(\.name))
    }
}
