import Credentials
import Failures
import HTTPServer
import ImagePicker
import PhotoLibrary

/// A module's errors as a client is answered: each domain's one table of statuses. A code with
/// no status is the server's own failure (the database, the disk other than full, a missing
/// tool): a 500 with a generic body, its detail only in the log. Storage that cannot be reached
/// is neither: a 503 with `Retry-After`, for the client to try again, since nothing was done.
protocol ClientFacing: FailureDomain {
    static func status(of code: Failure<Self>.Code) -> Int?
}

struct ClientError: HTTPResponseError {
    let status: Int
    let code: String
    let message: String

    /// The client-facing form of an error, or nil when it is the server's own failure.
    init?<Domain: ClientFacing>(_ error: Failure<Domain>) {
        guard let status = Domain.status(of: error.code) else { return nil }
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

/// Runs a module's work in a handler, turning client errors into their answers.
func answering<T, Domain: ClientFacing>(_ body: () async throws(Failure<Domain>) -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        if let client = ClientError(error) { throw client }
        throw error
    }
}

/// `answering` for work whose steps fail in the people's terms and the library's
/// (`PersonRemoval`).
func answeringPeopleAndLibrary<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as CredentialsError {
        if let client = ClientError(error) { throw client }
        throw error
    } catch let error as LibraryError {
        if let client = ClientError(error) { throw client }
        throw error
    }
}

extension LibraryFailures: ClientFacing {
    static func status(of code: LibraryError.Code) -> Int? {
        switch code {
        case .unsupportedType: 415
        case .tooLarge: 413
        // A video that takes longer than its job may is the file's doing as much as the
        // server's: a crafted file must not get a 5xx.
        case .truncated, .corrupt, .empty, .timeout: 422
        case .notFound: 404
        case .invalidEdit, .invalidRequest: 400
        case .noSpace: 507
        case .storageUnavailable: 503
        case .uploadConflict, .notAllowed: 409
        case .notYours: 403
        // tus' checksum extension names this status.
        case .checksumMismatch: 460
        case .tooManyUploads: 429
        // Work skipped because its client had gone: nobody reads the answer, and it is no
        // failure of the server's (nginx's "client closed request").
        case .cancelled: 499
        default: nil
        }
    }
}

/// A list that could not be written is 507, a password file nobody can read a 409 (the owner
/// must set it again), anything else the request's fault. The error's detail (a path) is not
/// a client's to read.
extension CredentialsFailures: ClientFacing {
    static func status(of code: CredentialsError.Code) -> Int? {
        switch code {
        case .writeFailed: 507
        case .storageUnavailable: 503
        case .storageFailed, .cryptoFailed: nil
        case .unreadableOwner, .nameTaken, .notAllowed, .passkeyTaken: 409
        case .unknownUser, .unknownPasskey: 404
        default: 400
        }
    }
}

extension PickerFailures: ClientFacing {
    static func status(of code: PickerError.Code) -> Int? {
        switch code {
        case .notFound: 404
        case .invalidTransition: 409
        case .tooManySessions: 429
        case .storageUnavailable: 503
        case .storageFailed: nil
        default: 400
        }
    }
}
