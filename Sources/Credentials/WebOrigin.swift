/// A web site's origin, as browsers send it in `Origin` and compare it in `postMessage`:
/// `http` or `https`, a host, and a port only when it is not the scheme's default. Written the
/// one way browsers write it, so two spellings of a site are one origin here too.
public struct WebOrigin: Hashable, Sendable, Codable, CustomStringConvertible {
    public let scheme: String
    /// Lowercased; an IPv6 address keeps its brackets.
    public let host: String
    public let port: Int?

    /// Accepts what a person types for a site (`https://Blog.Example/`, `http://127.0.0.1:9090`)
    /// and what a browser sends; refuses anything with a path, a query, credentials or a scheme
    /// other than http and https, and `null` (a sandboxed or file page, which no reply can reach).
    public init(_ text: String) throws(CredentialsError) {
        let invalid = CredentialsError(
            .invalidOrigin,
            "An origin is http:// or https://, a host name or address, and a port if needed, such as https://blog.example.")
        let lowered = text.lowercased()
        guard let separator = lowered.range(of: "://") else { throw invalid }
        scheme = String(lowered[..<separator.lowerBound])
        guard scheme == "http" || scheme == "https" else { throw invalid }
        var authority = lowered[separator.upperBound...]
        if authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.isEmpty, authority.allSatisfy(Self.isAuthorityCharacter) else { throw invalid }
        let hostPart: Substring
        let portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid }
            hostPart = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw invalid }
            portPart = rest.isEmpty ? nil : rest.dropFirst()
            guard hostPart.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), hostPart.count > 2 else {
                throw invalid
            }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            hostPart = parts[0]
            portPart = parts.count > 1 ? parts[1] : nil
            let labels = hostPart.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 && !$0.hasPrefix("-") && !$0.hasSuffix("-") }),
                hostPart.count <= 253, !hostPart.contains("[")
            else { throw invalid }
        }
        host = String(hostPart)
        if let portPart {
            guard (1...5).contains(portPart.count), portPart.allSatisfy(\.isASCIIDigit), let number = Int(portPart),
                (1...65535).contains(number)
            else { throw invalid }
            port = number == (scheme == "https" ? 443 : 80) ? nil : number
        } else {
            port = nil
        }
    }

    /// An `Origin` header's origin: only the one spelling a browser sends (RFC 6454's
    /// serialisation: lowercase, no default port, no slash after it). Another is a program's own
    /// making, and to take it as the site it resembles would grant that site's rights to text
    /// nobody's browser wrote.
    public init(header text: String) throws(CredentialsError) {
        let origin = try WebOrigin(text)
        guard origin.description == text else {
            throw CredentialsError(.invalidOrigin, "An Origin header is written as browsers write it, such as https://blog.example.")
        }
        self = origin
    }

    /// The host and, when not the default, the port: how a person tells sites apart.
    public var authority: String { port.map { "\(host):\($0)" } ?? host }

    public var description: String { "\(scheme)://\(authority)" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try WebOrigin(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Letters, digits and the punctuation of host names, IPv6 literals and ports; nothing that
    /// starts a path, a query, a fragment or credentials.
    private static func isAuthorityCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-.:[]".contains(character))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
