/// The request as Signature Version 4 writes it down to hash: method, encoded path, sorted query,
/// canonical headers, the list of signed headers and the payload hash, one a line.
struct CanonicalRequest {
    let text: String

    init(_ request: SignableRequest, headers: CanonicalHeaders, payloadHash: PayloadHash) {
        text = [
            request.method,
            URIEncoding.path(request.path),
            Self.query(request.query),
            headers.block,
            headers.signedHeaders,
            payloadHash.value,
        ].joined(separator: "\n")
    }

    /// Sorted by encoded name, then encoded value, byte by byte as AWS compares them.
    private static func query(_ items: [SignableRequest.QueryItem]) -> String {
        items.map { (name: URIEncoding.component($0.name), value: URIEncoding.component($0.value)) }
            .sorted { left, right in
                left.name == right.name
                    ? left.value.utf8.lexicographicallyPrecedes(right.value.utf8)
                    : left.name.utf8.lexicographicallyPrecedes(right.name.utf8)
            }
            .map { $0.name + "=" + $0.value }
            .joined(separator: "&")
    }
}

/// Every header of the request, `host` among them, in the form that is signed: names in lower
/// case and sorted, values trimmed with runs of blanks made one space, a repeated header's values
/// joined by commas in the order they were given.
struct CanonicalHeaders {
    /// `name:value` lines, each ending in a line feed.
    let block: String
    /// The names joined by `;`, for the canonical request and the `Authorization` header.
    let signedHeaders: String

    init(_ request: SignableRequest) {
        var values: [String: [String]] = ["host": [Self.canonical(request.host)]]
        for header in request.headers {
            values[header.name.lowercased(), default: []].append(Self.canonical(header.value))
        }
        let names = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        block = names.map { "\($0):\(values[$0, default: []].joined(separator: ","))\n" }.joined()
        signedHeaders = names.joined(separator: ";")
    }

    private static func canonical(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
