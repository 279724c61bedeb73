/// The request target as the client sent it, checked before anything trusts it, then split into
/// the decoded path (what routing and handlers see) and the query.
///
/// The checks run on the raw bytes and again on the decoded path, because libmicrohttpd decodes
/// in place and a `%00` or a `%2e%2e` would otherwise reach a handler looking harmless. Handlers
/// join paths with their own folders; a `..` that got through would let a client walk out of them.
struct RawURI: Sendable, Equatable {
    /// The path, percent-decoded, without the query.
    let path: String
    /// Query parameters, percent-decoded, `+` as space; a repeated name keeps its first value.
    let query: [String: String]
    /// The path as sent, safe to print: bytes outside visible ASCII stay percent-encoded.
    let loggablePath: String

    init(_ raw: [UInt8]) throws(HTTPError) {
        let questionMark = raw.firstIndex(of: UInt8(ascii: "?")) ?? raw.endIndex
        let rawPath = raw[..<questionMark]
        let rawQuery = questionMark < raw.endIndex ? raw[(questionMark + 1)...] : []
        loggablePath = Self.loggable(rawPath)

        guard rawPath.first == UInt8(ascii: "/") else {
            throw Self.invalid("The path must start with /.")
        }
        let decodedPath = Self.percentDecoded(rawPath, plusIsSpace: false)
        guard !raw.contains(0), !decodedPath.contains(0), !Self.percentDecoded(rawQuery, plusIsSpace: false).contains(0) else {
            throw Self.invalid("The address must not contain a NUL byte.")
        }
        guard !decodedPath.contains(UInt8(ascii: "\\")) else {
            throw Self.invalid("The path must not contain a backslash.")
        }
        let segments = decodedPath.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) else {
            throw Self.invalid("The path must not contain . or .. segments.")
        }
        guard let path = String(validating: decodedPath, as: UTF8.self) else {
            throw Self.invalid("The path must be UTF-8.")
        }
        self.path = path
        self.query = Self.parseQuery(rawQuery)
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
    static func loggable(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            if byte > 0x20 && byte < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return text
    }
}
