/// A named schema change. The list a program passes is append-only: a migration, once shipped,
/// is never edited or removed, because databases in the field have already run it.
public struct Migration: Sendable {
    public let name: String
    public let sql: String
    /// It replaces tables other tables refer to, as SQLite makes a change of a constraint be
    /// done: a new table, the rows copied, the old one dropped and the new renamed. SQLite runs
    /// it with foreign keys off, or dropping the old table would delete or empty every row that
    /// refers to it, and checks every reference before it commits. PostgreSQL changes
    /// constraints in place and runs it as any other.
    public let rebuildsTables: Bool

    public init(_ name: String, _ sql: String, rebuildsTables: Bool = false) {
        self.name = name
        self.sql = sql
        self.rebuildsTables = rebuildsTables
    }
}

extension [Migration] {
    /// The migrations a database has yet to run, given the names of those it ran, in order. What it
    /// ran must begin this list: anything else was written by a newer or different program.
    public func unapplied(after applied: [String]) throws(StorageError) -> ArraySlice<Migration> {
        guard applied.count <= count, zip(self, applied).allSatisfy({ $0.name == $1 }) else {
            throw StorageError(
                .database, "The library was written by a newer or different version of CameraRoll (unknown schema migrations).")
        }
        return dropFirst(applied.count)
    }
}
