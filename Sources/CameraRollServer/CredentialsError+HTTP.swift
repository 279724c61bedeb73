import Credentials
import HTTPServer

extension ClientError {
    /// How a credentials error answers: a list that could not be written is 507, the shared
    /// database out of reach a 503 to try again, a password file nobody can read a 409 (the
    /// owner must set it again), anything else the request's fault. The error's detail is not
    /// a client's to read.
    init(_ error: CredentialsError) {
        switch error.code {
        case "write_failed": status = 507
        case "storage_unavailable": status = 503
        case "storage_failed": status = 500
        case "unreadable_owner", "no_password": status = 409
        default: status = 400
        }
        code = error.code
        message = error.message
    }
}

/// Runs credentials work in a handler, turning its errors into their answers.
func answering<T>(_ body: () async throws(CredentialsError) -> T) async throws(ClientError) -> T {
    do {
        return try await body()
    } catch {
        throw ClientError(error)
    }
}
