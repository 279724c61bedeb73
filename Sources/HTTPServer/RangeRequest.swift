/// What a `Range` header asks of a body of `total` bytes, reduced to what the server serves.
///
/// Only one range is served. A header with several ranges (`bytes=0-1,5-6`) or one we cannot
/// parse is ignored and the whole body is sent with 200, which RFC 9110 allows: a multipart
/// answer would cost a second framing format for a case browsers do not use for media.
package enum RangeRequest: Sendable, Equatable {
    /// No usable range: send everything.
    case whole
    /// Send `offset ..< offset + length` with 206.
    case part(offset: Int, length: Int)
    /// Nothing of the body matches: 416 with `Content-Range: bytes */total`.
    case unsatisfiable

    package init(header: String?, total: Int) {
        guard let header, let spec = Self.singleSpec(header) else {
            self = .whole
            return
        }
        let (first, last) = spec
        switch (Self.number(first), Self.number(last)) {
        case (nil, let suffix?) where first.isEmpty:
            // `bytes=-n`: the last n bytes.
            guard suffix > 0, total > 0 else {
                self = .unsatisfiable
                return
            }
            let length = min(suffix, total)
            self = .part(offset: total - length, length: length)
        case (let start?, nil) where last.isEmpty:
            self = start < total ? .part(offset: start, length: total - start) : .unsatisfiable
        case (let start?, let end?):
            guard start <= end, start < total else {
                self = .unsatisfiable
                return
            }
            self = .part(offset: start, length: min(end, total - 1) - start + 1)
        default:
            self = .whole
        }
    }

    /// The two sides of the one `first-last` of a `bytes=` header; nil for another unit, a list or junk.
    private static func singleSpec(_ header: String) -> (Substring, Substring)? {
        let trimmed = header.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals].lowercased() == "bytes" else { return nil }
        let spec = Substring(trimmed[trimmed.index(after: equals)...].filter { $0 != " " && $0 != "\t" })
        guard !spec.contains(","), spec.filter({ $0 == "-" }).count == 1, let dash = spec.firstIndex(of: "-") else { return nil }
        return (spec[..<dash], spec[spec.index(after: dash)...])
    }

    /// Digits only; a value too large for Int is as good as infinite.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text) ?? Int.max
    }
}
