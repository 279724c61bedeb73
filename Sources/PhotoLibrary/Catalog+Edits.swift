import Foundation
import Storage

extension Catalog {
    /// Stores an edit (or removes it, with nil). The original never changes; renders of the edit
    /// are derivatives.
    public func setEdit(_ edit: Edit?, for id: String, owner: Owner) async throws(LibraryError) -> Asset {
        let current = try await asset(id, owner: owner)
        try edit?.validate(for: current)
        let json = edit.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        try await write { connection throws(StorageError) in try connection.run("UPDATE assets SET edit = ? WHERE id = ?", [json, id]) }
        return try await asset(id, owner: owner)
    }
}
