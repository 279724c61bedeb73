/// Why a password, a sign-in or the owner's file was refused. `code` is stable; `message` is
/// for whoever asked, a client too; `detail` (a file's path) for the server's own user alone.
public struct CredentialsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let message: String
    public let detail: String?

    public init(_ code: String, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    public var description: String { "\(code): \(message)" + (detail.map { " (\($0))" } ?? "") }
}
