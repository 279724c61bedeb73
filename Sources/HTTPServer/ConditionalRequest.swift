/// The validators a request carries (`If-None-Match`, `If-Modified-Since`, `If-Range`), judged
/// against the `ETag` and `Last-Modified` of the response a handler made.
package struct ConditionalRequest: Sendable, Equatable {
    var ifNoneMatch: String?
    var ifModifiedSince: String?
    var ifRange: String?

    package init(ifNoneMatch: String? = nil, ifModifiedSince: String? = nil, ifRange: String? = nil) {
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.ifRange = ifRange
    }

    init(headers: Headers) {
        self.init(ifNoneMatch: headers["If-None-Match"], ifModifiedSince: headers["If-Modified-Since"], ifRange: headers["If-Range"])
    }

    /// Whether the client's copy is current, so 304 can replace the body.
    ///
    /// `If-Modified-Since` counts only without `If-None-Match` (RFC 9110, 13.2.2). Dates are
    /// compared as text: our `Last-Modified` values are the ones clients echo back.
    package func isNotModified(etag: String?, lastModified: String?) -> Bool {
        if let ifNoneMatch {
            guard let etag else { return false }
            return Self.tags(ifNoneMatch).contains { $0 == "*" || Self.weaklyEqual($0, etag) }
        }
        if let ifModifiedSince, let lastModified {
            return ifModifiedSince == lastModified
        }
        return false
    }

    /// Whether a `Range` may be honoured: without `If-Range`, or when it names the current
    /// representation by a strong ETag or by its exact `Last-Modified`.
    package func allowsRange(etag: String?, lastModified: String?) -> Bool {
        guard let ifRange = ifRange?.trimmingSpaces else { return true }
        if let etag, !etag.hasPrefix("W/"), ifRange == etag { return true }
        if let lastModified, ifRange == lastModified { return true }
        return false
    }

    private static func tags(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0).trimmingSpaces }
    }

    /// Weak comparison (RFC 9110, 8.8.3.2), which `If-None-Match` uses.
    private static func weaklyEqual(_ lhs: String, _ rhs: String) -> Bool {
        lhs.dropWeakPrefix == rhs.dropWeakPrefix
    }
}

extension String {
    /// Without the spaces and tabs HTTP allows around a header's values.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    fileprivate var dropWeakPrefix: Substring {
        hasPrefix("W/") ? dropFirst(2) : Substring(self)
    }
}
