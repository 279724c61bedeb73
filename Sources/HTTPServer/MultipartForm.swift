import Foundation
internal import Glibc

/// A `multipart/form-data` body (RFC 7578, as the HTML standard has browsers write it: a form
/// with files, or a share from another app) found in place: each part's field name, a file's
/// name and type, and the bytes of the body it holds. Nothing is copied, so a share of a few
/// videos costs no second copy before they are imported.
package struct MultipartForm: Sendable, Equatable {
    package struct Part: Sendable, Equatable {
        package var name: String
        /// The file's name as sent, its last path segment only (a phone's share may send a path);
        /// nil for a text field.
        package var filename: String?
        package var contentType: String?
        /// Where its bytes are in the body.
        package var range: Range<Int>
    }

    package var parts: [Part]

    /// More than any form or share sends: a bound on the work a crafted body makes.
    package static let mostParts = 1000
    static let mostHeaderBytes = 16384
    static let chunk = 1 << 20

    /// The boundary a `Content-Type` names for `multipart/form-data`; nil for another type or a
    /// boundary RFC 2046 does not allow (1 to 70 characters of its set, not ending in a space).
    package static func boundary(ofContentType header: String) -> String? {
        let fields = Self.fields(header)
        guard fields.first?.value == nil, fields.first?.key == "multipart/form-data",
            let boundary = fields.dropFirst().first(where: { $0.key == "boundary" })?.value,
            (1...70).contains(boundary.utf8.count), boundary.last != " ",
            boundary.utf8.allSatisfy({ Self.boundaryCharacters.contains($0) })
        else { return nil }
        return boundary
    }

    private static let boundaryCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)

    /// The parts of a body of `size` bytes, which `read(offset, count)` gives (fewer at its end).
    package init(boundary: String, size: Int, read: @escaping (Int, Int) -> [UInt8]) throws(HTTPError) {
        let source = Source(size: size, read: read)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter may open the body, without the line break before it.
        var at: Int
        if source.bytes(0, delimiter.count - 2) == Array(delimiter.dropFirst(2)) {
            at = delimiter.count - 2
        } else if let found = source.find(delimiter, from: 0) {
            at = found + delimiter.count
        } else {
            throw Self.refused("it has no part")
        }
        var parts: [Part] = []
        while true {
            let after = source.bytes(at, 2)
            if after == Array("--".utf8) { break }
            // Transport padding (RFC 2046) may stand before the line break.
            var lineEnd = at
            while let byte = source.bytes(lineEnd, 1).first, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { lineEnd += 1 }
            guard source.bytes(lineEnd, 2) == [13, 10] else { throw Self.refused("a boundary line goes on") }
            guard parts.count < Self.mostParts else { throw Self.refused("it has more than \(Self.mostParts) parts") }
            let headerStart = lineEnd + 2
            let window = source.bytes(headerStart, Self.mostHeaderBytes)
            guard !window.starts(with: [13, 10]) else { throw Self.refused("a part has no name") }
            guard let headerLength = Self.headerEnd(window) else { throw Self.refused("a part's header never ends") }
            let bodyStart = headerStart + headerLength + 4
            guard let next = source.find(delimiter, from: bodyStart) else { throw Self.refused("it ends before its last boundary") }
            parts.append(try Self.part(Array(window[..<headerLength]), range: bodyStart..<next))
            at = next + delimiter.count
        }
        self.parts = parts
    }

    /// The parts of the body in the file at `path`, read a megabyte at a time. A file shorter
    /// than `size` reads as ending early: a form that never closes.
    package init(path: String, size: Int, boundary: String) throws(HTTPError) {
        guard let file = FilePart.open(path, range: nil) else {
            throw HTTPError(500, "body_unreadable", "The request's body could not be read.")
        }
        defer { file.close() }
        try self.init(boundary: boundary, size: min(size, file.size)) { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let whole = bytes.withUnsafeMutableBytes { file.read(into: $0.baseAddress!, at: offset, count: count) }
            return whole ? bytes : []
        }
    }

    static func refused(_ why: String) -> HTTPError {
        HTTPError(400, "invalid_multipart", "The form's body is not multipart/form-data as browsers send it: \(why).")
    }

    /// Where `\r\n\r\n` starts in a part's header; 0 for a part with no header lines.
    private static func headerEnd(_ window: [UInt8]) -> Int? {
        guard window.count >= 4 else { return nil }
        for index in 0...(window.count - 4)
        where window[index] == 13 && window[index + 1] == 10 && window[index + 2] == 13 && window[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// A part from its header lines: `Content-Disposition: form-data; name=...; filename=...`
    /// names it, `Content-Type` types it.
    private static func part(_ header: [UInt8], range: Range<Int>) throws(HTTPError) -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        let text = String(decoding: header, as: UTF8.self)
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { throw refused("a part's header line has no colon") }
            let field = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingSpaces
            switch field {
            case "content-disposition":
                let fields = Self.fields(value)
                guard fields.first?.key == "form-data" else { throw refused("a part is not form-data") }
                name = fields.first { $0.key == "name" }?.value
                filename = fields.first { $0.key == "filename" }?.value.map(Self.lastSegment)
            case "content-type":
                contentType = value.isEmpty ? nil : value
            default:
                continue
            }
        }
        guard let name else { throw refused("a part has no name") }
        return Part(name: name, filename: filename, contentType: contentType, range: range)
    }

    /// A path's last segment, as a phone's share may name a file by its path.
    private static func lastSegment(_ name: String) -> String {
        String(name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "")
    }

    /// `token; key=value; key="quoted value"` as a list, keys lowercased, quoted values with
    /// the HTML standard's escapes (`%22`, `%0D`, `%0A`) undone; the first field has no value.
    static func fields(_ header: String) -> [(key: String, value: String?)] {
        var fields: [(key: String, value: String?)] = []
        var characters = Substring(header)
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            let key = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(key.count)
            guard characters.first == "=" else {
                if !key.isEmpty { fields.append((String(key).trimmingSpaces.lowercased(), nil)) }
                continue
            }
            characters = characters.dropFirst()
            var value = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\", let escaped = characters.first {
                        value.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                characters = characters.dropFirst()
                value = value.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "\r")
                    .replacingOccurrences(of: "%0A", with: "\n")
            } else {
                let token = characters.prefix { $0 != ";" }
                characters = characters.dropFirst(token.count)
                value = String(token).trimmingSpaces
            }
            fields.append((String(key).trimmingSpaces.lowercased(), value))
        }
        return fields
    }

    /// The body as its reader gives it, and a search for the delimiter a megabyte at a time.
    private struct Source {
        let size: Int
        let read: (Int, Int) -> [UInt8]

        func bytes(_ offset: Int, _ count: Int) -> [UInt8] {
            guard offset < size, count > 0 else { return [] }
            return read(offset, min(count, size - offset))
        }

        /// Where `needle` starts in `window`: memchr to each candidate first byte, then memcmp. A
        /// body of nothing but that byte costs the needle's length per byte, 74 at most.
        static func index(of needle: [UInt8], in window: [UInt8]) -> Int? {
            window.withUnsafeBytes { haystack -> Int? in
                needle.withUnsafeBytes { wanted -> Int? in
                    guard let base = haystack.baseAddress, let first = needle.first else { return nil }
                    var at = 0
                    while at + needle.count <= haystack.count {
                        guard let hit = memchr(base + at, Int32(first), haystack.count - needle.count + 1 - at) else { return nil }
                        let index = base.distance(to: UnsafeRawPointer(hit))
                        if memcmp(base + index, wanted.baseAddress!, needle.count) == 0 { return index }
                        at = index + 1
                    }
                    return nil
                }
            }
        }

        /// Where `needle` next starts at or after `start`.
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            var offset = max(start, 0)
            while offset + needle.count <= size {
                let window = bytes(offset, MultipartForm.chunk + needle.count - 1)
                guard window.count >= needle.count else { return nil }
                if let found = Self.index(of: needle, in: window) { return offset + found }
                offset += window.count - needle.count + 1
            }
            return nil
        }
    }
}
