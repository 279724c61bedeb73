/// A named schema change. The list a program passes is append-only: a migration, once shipped,
/// is never edited or removed, because databases in the field have already run it.
public struct Migration: Sendable {
    public let name: String
    public let sql: String

    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}
