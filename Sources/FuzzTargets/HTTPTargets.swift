import Foundation
import HTTPServer

extension FuzzTarget {
    static let httpTargets: [FuzzTarget] = [
        FuzzTarget(
            "raw-uri", "a request target as the client sent it: path, query, escapes",
            examples: ["/media/abc/display?w=320&h=240&dpr=2", "/api/assets?cursor=MjAyNi0xMi0wMXxhYmM&limit=60", "/%2e%2e/a%00b?x=%zz+y"]
        ) { bytes in
            let raw = Array(bytes)
            require(RawURI.loggable(raw[...]).utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a logged target is visible ASCII")
            guard let uri = try? RawURI(raw) else { return }
            // Bytes, as the router and the file system read a path (a combining mark after the
            // slash would make a different first Character).
            let path = Array(uri.path.utf8)
            require(
                path.first == UInt8(ascii: "/") && !path.contains(0) && !path.contains(UInt8(ascii: "\\")),
                "a path is absolute, without NUL or backslash")
            require(
                !path.split(separator: UInt8(ascii: "/")).contains { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) },
                "a path has no dot segments")
        },
        FuzzTarget(
            "multipart-form", "a share's multipart/form-data body, from POST /share (boundary XyZ)", maxLength: 8192,
            examples: [
                "--XyZ\r\nContent-Disposition: form-data; name=\"media\"; filename=\"a%22b.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                    + "\u{FF}\u{D8}\r\n--XyZ\r\nContent-Disposition: form-data; name=\"media\"; filename=\"dir/c.mov\"\r\n\r\nmoov\r\n--XyZ--\r\n"
            ]
        ) { bytes in
            let body = Array(bytes)
            guard let form = try? MultipartForm(boundary: "XyZ", size: body.count, read: { Array(body[$0..<min(body.count, $0 + $1)]) })
            else { return }
            require(form.parts.count <= MultipartForm.mostParts, "a bounded number of parts")
            var end = 0
            for part in form.parts {
                require(part.range.lowerBound >= end && part.range.upperBound <= body.count, "parts in order, within the body")
                let content = body[part.range]
                require(!content.indices.contains { content[$0...].starts(with: Array("\r\n--XyZ".utf8)) }, "no delimiter inside a part")
                require(part.filename.map { !$0.contains("/") && !$0.contains("\\") } ?? true, "a file's name, never a path")
                end = part.range.upperBound
            }
        },
        FuzzTarget(
            "multipart-type", "a Content-Type header naming a multipart/form-data boundary",
            examples: ["multipart/form-data; boundary=----WebKitFormBoundaryx7", "multipart/form-data; boundary=\"a b\"", "text/plain"]
        ) { bytes in
            guard let boundary = MultipartForm.boundary(ofContentType: text(bytes)) else { return }
            require((1...70).contains(boundary.utf8.count) && boundary.last != " ", "a boundary RFC 2046 allows")
            require(MultipartForm.boundary(ofContentType: "multipart/form-data; boundary=\"\(boundary)\"") == boundary, "quoted, the same")
        },
        FuzzTarget(
            "range-request", "a Range header against a body's length",
            examples: ["\u{0}\u{0}\u{10}\u{0}bytes=0-99", "\u{0}\u{1}\u{0}\u{0}bytes=-500", "\u{0}\u{0}\u{1}\u{0}bytes=200-"]
        ) { bytes in
            // The first four bytes are the body's length, the rest the header.
            let total = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            switch RangeRequest(header: text(UnsafeRawBufferPointer(rebasing: bytes.dropFirst(4))), total: total) {
            case .part(let offset, let length):
                require(offset >= 0 && length > 0 && offset + length <= total, "a part lies within the body")
            case .whole, .unsatisfiable:
                break
            }
        },
        FuzzTarget(
            "conditional-request", "If-None-Match, If-Modified-Since and If-Range against an entity",
            examples: ["W/\"a\", \"b\"\u{0}Tue, 01 Dec 2026 10:00:00 GMT\u{0}\"b\"\u{0}\"b\"\u{0}Tue, 01 Dec 2026 10:00:00 GMT"]
        ) { bytes in
            let fields = text(bytes).split(separator: "\u{0}", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            func field(_ index: Int) -> String? { index < fields.count ? fields[index] : nil }
            let request = ConditionalRequest(ifNoneMatch: field(0), ifModifiedSince: field(1), ifRange: field(2))
            _ = request.isNotModified(etag: field(3), lastModified: field(4))
            _ = request.allowsRange(etag: field(3), lastModified: field(4))
        },
        FuzzTarget(
            "header-line", "a header field as libmicrohttpd leaves it in its read buffer",
            examples: ["Content-Length\u{0} 5", "Host\u{0}example.org", "Transfer-Encoding \u{0}chunked"]
        ) { bytes in
            // The buffer as MHD parsed a line in place: the name, a NUL where the colon was, the value.
            var buffer = Array(bytes).map { CChar(bitPattern: $0) } + [0, 0]
            let nameEnd = buffer.firstIndex(of: 0) ?? 0
            buffer.withUnsafeMutableBufferPointer { line in
                guard let base = line.baseAddress else { return }
                let wellFormed = HeaderLine.isWellFormed(name: base, value: base + nameEnd + 1)
                if wellFormed { require(nameEnd > 0, "a well-formed field has a name") }
            }
        },
    ]
}
