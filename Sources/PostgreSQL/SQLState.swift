import Storage

/// PostgreSQL's error codes (SQLSTATE, appendix A of its manual) translated to `StorageError`, in
/// one place.
enum SQLState {
    static func error(_ state: String, connectionLost: Bool, detail: String) -> StorageError {
        if connectionLost || state.hasPrefix("08") || ["57P01", "57P02", "57P03", "57014", "53300"].contains(state) {
            // Connection gone, server shutting down or starting, a statement past its deadline,
            // too many connections: the database is out of reach for now, nothing was committed.
            return StorageError(.unavailable, "The library database is not answering.", detail: detail)
        }
        if state.hasPrefix("23") { return StorageError(.constraint, "A database constraint refused the change.", detail: detail) }
        if state == "40001" || state == "40P01" || state == "55P03" {
            return StorageError(.busy, "The library database is busy.", detail: detail)
        }
        if state == "53100" { return StorageError(.noSpace, "The database's disk is full.", detail: detail) }
        return StorageError(.database, "The library database failed.", detail: state.isEmpty ? detail : "\(state): \(detail)")
    }
}
