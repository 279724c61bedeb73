import Foundation
public import HTTPServer

/// A response as it came off the wire: status line, headers, and the bytes after them.
public struct HTTPReply: Sendable {
    public let status: Int
    public let headers: Headers
    public let body: [UInt8]

    /// nil when the bytes do not start with a complete status line and header block.
    public init?(_ bytes: [UInt8]) {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else { return nil }
        var headers = Headers()
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.status = status
        self.headers = headers
        self.body = Array(bytes[(end + separator.count)...])
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// How many of `bytes` make the first whole reply (head and `Content-Length` bytes of body);
    /// nil while it is incomplete.
    public static func wholeLength(_ bytes: [UInt8]) -> Int? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased().components(separatedBy: "\r\n")
        let field = "content-length:"
        let lengths = head.filter { $0.hasPrefix(field) }.map { Int($0.dropFirst(field.count).trimmingCharacters(in: .whitespaces)) }
        let length = (lengths.first ?? 0) ?? 0
        let total = end + separator.count + length
        return bytes.count >= total ? total : nil
    }
}
