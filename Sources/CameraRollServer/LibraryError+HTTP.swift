import HTTPServer
import PhotoLibrary

/// How each library error answers a client. Failures that are the server's own (the database,
/// the disk other than full, a missing tool) are not client errors: they stay 500s with a
/// generic body, their detail only in the log. Storage that cannot be reached is neither: a 503
/// with `Retry-After`, for the client to try again, since nothing was done.
struct ClientError: HTTPResponseError {
    let status: Int
    let code: String
    let message: String

    /// The client-facing form of a library error, or nil when it is the server's own failure.
    init?(_ error: LibraryError) {
        let status: Int
        switch error.code {
        case .unsupportedType: status = 415
        case .tooLarge: status = 413
        // A video that takes longer than its job may is the file's doing as much as the
        // server's: a crafted file must not get a 5xx.
        case .truncated, .corrupt, .empty, .timeout: status = 422
        case .notFound: status = 404
        case .invalidEdit, .invalidRequest: status = 400
        case .noSpace: status = 507
        case .storageUnavailable: status = 503
        case .uploadConflict, .notAllowed: status = 409
        // tus' checksum extension names this status.
        case .checksumMismatch: status = 460
        case .tooManyUploads: status = 429
        default: return nil
        }
        self.status = status
        code = error.code.description
        message = error.message
    }

    var response: Response {
        var response = Response.bytes(jsonBody, contentType: "application/json; charset=utf-8", status: status)
        if status == 503 { response.headers["Retry-After"] = "5" }
        return response
    }
}

/// Runs library work in a handler, turning client errors into their answers.
func answering<T>(_ body: () async throws(LibraryError) -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        if let client = ClientError(error) { throw client }
        throw error
    }
}
