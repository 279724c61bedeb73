/// The request target as the client sent it, checked before anything trusts it, then split into
/// the decoded path (what routing and handlers see) and the query.
///
/// The checks run on the raw bytes and again on the decoded path, because libmicrohttpd decodes
/// in place and a `%00` or a `%2e%2e` would otherwise reach a handler looking harmless. Handlers
/// join paths with their own folders; a `..` that got through would let a client walk out of them.
package struct RawURI: Sendable, Equatable {
    /// The path, percent-decoded, without the query.
    package let path: String
    /// Query parameters, percent-decoded, `+` as space; a repeated name keeps its first value.
    package let query: [String: String]

    package init(_ raw: [UInt8]) throws(HTTPError) {
        let questionMark = raw.firstIndex(of: UInt8(ascii: "?")) ?? raw.endIndex
        let rawPath = raw[..<questionMark]
        let rawQuery = questionMark < raw.endIndex ? raw[(questionMark + 1)...] : []

        guard rawPath.first == UInt8(ascii: "/") else {
            throw Self.invalid("The path must start with /.")
        }
        // Most paths have no escapes, and are then their own decoding.
        let escaped = rawPath.contains(UInt8(ascii: "%"))
        let decodedPath = escaped ? ArraySlice(Self.percentDecoded(rawPath, plusIsSpace: false)) : rawPath
        let queryHidesNUL = rawQuery.contains(UInt8(ascii: "%")) && Self.percentDecoded(rawQuery, plusIsSpace: false).contains(0)
        guard !raw.contains(0), !decodedPath.contains(0), !queryHidesNUL else {
            throw Self.invalid("The address must not contain a NUL byte.")
        }
        guard !decodedPath.contains(UInt8(ascii: "\\")) else {
            throw Self.invalid("The path must not contain a backslash.")
        }
        guard !Self.hasDotSegment(decodedPath) else {
            throw Self.invalid("The path must not contain . or .. segments.")
        }
        guard let path = String(validating: decodedPath, as: UTF8.self) else {
            throw Self.invalid("The path must be UTF-8.")
        }
        self.path = path
        self.query = rawQuery.isEmpty ? [:] : Self.parseQuery(rawQuery)
    }

    /// Whether a segment between slashes is `.` or `..`.
    private static func hasDotSegment(_ path: ArraySlice<UInt8>) -> Bool {
        var length = 0
        var onlyDots = true
        for byte in path {
            if byte == UInt8(ascii: "/") {
                if length > 0, length <= 2, onlyDots { return true }
                length = 0
                onlyDots = true
            } else {
                length += 1
                onlyDots = onlyDots && byte == UInt8(ascii: ".")
            }
        }
        return length > 0 && length <= 2 && onlyDots
    }

    private static func invalid(_ message: String) -> HTTPError {
        .badRequest("invalid_path", message)
    }

    private static func parseQuery(_ raw: ArraySlice<UInt8>) -> [String: String] {
        var query: [String: String] = [:]
        for pair in raw.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = String(decoding: percentDecoded(pair[..<equals], plusIsSpace: true), as: UTF8.self)
            let value = equals < pair.endIndex ? pair[(equals + 1)...] : []
            if query[name] == nil {
                query[name] = String(decoding: percentDecoded(value, plusIsSpace: true), as: UTF8.self)
            }
        }
        return query
    }

    /// `%HH` becomes its byte; a `%` not followed by two hex digits stays as it is, as browsers do.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), let high = hexValue(bytes, index + 1), let low = hexValue(bytes, index + 2) {
                result.append(high << 4 | low)
                index += 3
                continue
            }
            result.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return result
    }

    private static func hexValue(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt8? {
        guard index < bytes.endIndex else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return bytes[index] - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return bytes[index] - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return bytes[index] - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Keeps log lines one line each and free of terminal escapes, whatever the client sent.
    package static func loggable(_ bytes: ArraySlice<UInt8>) -> String {
        guard !bytes.allSatisfy(isVisible) else { return String(decoding: bytes, as: UTF8.self) }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 3)
        appendLoggable(bytes) { text.append($0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The loggable form, byte by byte: visible ASCII as it is, anything else as `%HH`.
    static func appendLoggable(_ bytes: ArraySlice<UInt8>, to put: (UInt8) -> Void) {
        let digits: StaticString = "0123456789ABCDEF"
        for byte in bytes {
            if isVisible(byte) {
                put(byte)
            } else {
                put(UInt8(ascii: "%"))
                put(digits.utf8Start[Int(byte >> 4)])
                put(digits.utf8Start[Int(byte & 0x0F)])
            }
        }
    }

    private static func isVisible(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
