/// The one shape of every module's errors. `code` is one of the module's own closed set (only
/// the module makes codes, so a client matches on them and never on a string); `message` is for
/// people and never carries a path, a key, SQL arguments or a tool's own words; `detail` is those
/// words, for the operator's log; `cause` is the error underneath, where there was one.
///
/// A module names its errors by a domain (`public enum StorageFailures: FailureDomain {}`,
/// `public typealias StorageError = Failure<StorageFailures>`) and its codes in an extension of
/// `Failure.Code` where `Domain` is it. How each module's errors answer an HTTP client is one
/// mapping in the server (`ClientError`).
public struct Failure<Domain: FailureDomain>: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable code, as clients and logs read it (`not_found`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        /// Codes are made by the module whose domain they are in, once each, as static members.
        package init(_ name: String) { self.name = name }
        public var description: String { name }
    }

    public let code: Code
    public let message: String
    /// What the engine, the decoder, the tool or the system said, cleaned by the domain.
    public let detail: String?
    /// The error this one was made from, kept for the log and for a layer above to look into.
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, detail: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.detail = detail.flatMap(Domain.cleaned(detail:))
        self.cause = cause
    }

    /// Errors are the same when their code and message are: the cause's words vary by machine.
    public static func == (left: Self, right: Self) -> Bool {
        left.code == right.code && left.message == right.message
    }

    public var description: String { "\(code): \(message)" + (detail.map { " (\($0))" } ?? "") }
}

/// A module's family of errors, by which `Failure` tells one module's codes from another's.
public protocol FailureDomain: Sendable {
    /// The detail as it may be logged, or nil when nothing of it may be: a domain whose tools'
    /// words can name files removes them here.
    static func cleaned(detail: String) -> String?
}

extension FailureDomain {
    public static func cleaned(detail: String) -> String? { detail }

    /// `text` with each word that names a file (begins with `/`, `"/` or `file:/`, as our tools
    /// are given paths) written `file:`: a tool's or a decoder's words may name the files it
    /// read, which no log line or client is to see. The description of a failure includes its
    /// detail.
    public static func withoutPaths(_ text: some StringProtocol) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("/") || $0.hasPrefix("\"/") || $0.hasPrefix("file:/") ? "file:" : String($0) }.joined(separator: " ")
    }
}
