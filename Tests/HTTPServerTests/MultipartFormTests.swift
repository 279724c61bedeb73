import Foundation
import TestSupport
import Testing

@testable import HTTPServer

/// Forms as browsers write them (Chromium's share target: repeated `media` parts, names with the
/// HTML standard's escapes, a path for a name), found in place; and each way a body can fail to
/// be one refused with `invalid_multipart`.
@Suite struct MultipartFormTests {
    let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"

    func body(_ parts: [(header: String, content: [UInt8])], preamble: String = "", closing: String = "--\r\n") -> [UInt8] {
        var bytes = Array(preamble.utf8)
        for (index, part) in parts.enumerated() {
            bytes += Array("\(index == 0 && preamble.isEmpty ? "" : "\r\n")--\(boundary)\r\n\(part.header)\r\n\r\n".utf8) + part.content
        }
        return bytes + Array("\r\n--\(boundary)\(closing)".utf8)
    }

    func parse(_ bytes: [UInt8]) throws(HTTPError) -> MultipartForm {
        try MultipartForm(boundary: boundary, size: bytes.count) { Array(bytes[$0..<min(bytes.count, $0 + $1)]) }
    }

    @Test func aShareOfTwoFilesIsFoundInPlace() throws {
        let jpeg: [UInt8] = [0xff, 0xd8, 0xff, 0xe0] + Array("\r\n--not the boundary\r\n".utf8) + [0xff, 0xd9]
        let movie = Array("....ftypqt  ".utf8)
        let bytes = body([
            (#"Content-Disposition: form-data; name="media"; filename="Caf\#u{e9} %22best%22.jpg""# + "\r\nContent-Type: image/jpeg", jpeg),
            (#"Content-Disposition: form-data; name="media"; filename="/storage/emulated/0/DCIM/clip.mov""#, movie),
            (#"Content-Disposition: form-data; name="text""# + "\r\nContent-Type: text/plain", Array("look".utf8)),
        ])
        let form = try parse(bytes)
        #expect(form.parts.map(\.name) == ["media", "media", "text"])
        #expect(form.parts.map(\.filename) == ["Café \"best\".jpg", "clip.mov", nil])
        #expect(form.parts.map(\.contentType) == ["image/jpeg", nil, "text/plain"])
        #expect(form.parts.map { Array(bytes[$0.range]) } == [jpeg, movie, Array("look".utf8)])
    }

    @Test func aPreambleAnEmptyPartAndPaddingAreRead() throws {
        let bytes = body([(#"content-disposition: form-data; name=empty"#, [])], preamble: "ignored\r\n", closing: "--")
        let form = try parse(bytes)
        #expect(form.parts.count == 1 && form.parts[0].name == "empty" && form.parts[0].range.isEmpty)
        var padded = Array("--\(boundary)  \t\r\nContent-Disposition: form-data; name=a\r\n\r\nx".utf8)
        padded += Array("\r\n--\(boundary)--".utf8)
        #expect(try parse(padded).parts.map { Array(padded[$0.range]) } == [[UInt8(ascii: "x")]])
    }

    /// A file larger than the reader's window, its delimiter across two windows.
    @Test func aDelimiterAcrossTheReadersWindowIsFound() throws {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        let header = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"media\"; filename=\"big.bin\"\r\n\r\n".utf8)
        let size = MultipartForm.chunk - header.count - delimiter.count / 2
        let content = [UInt8](repeating: UInt8(ascii: "-"), count: size)
        let bytes = header + content + delimiter + Array("--\r\n".utf8)
        let form = try parse(bytes)
        #expect(form.parts.count == 1 && form.parts[0].range == header.count..<(header.count + size))
    }

    @Test func theBoundaryIsReadFromTheContentType() {
        #expect(MultipartForm.boundary(ofContentType: "multipart/form-data; boundary=\(boundary)") == boundary)
        #expect(MultipartForm.boundary(ofContentType: #"Multipart/Form-Data; charset=utf-8; Boundary="a b:c""#) == "a b:c")
        for refused in [
            "text/plain; boundary=x", "multipart/form-data", "multipart/form-data; boundary=", "multipart/mixed; boundary=x",
            "multipart/form-data; boundary=\(String(repeating: "x", count: 71))", #"multipart/form-data; boundary="x ""#,
            "multipart/form-data; boundary=a\u{7}b",
        ] {
            #expect(MultipartForm.boundary(ofContentType: refused) == nil, "\(refused)")
        }
    }

    @Test func whatIsNoFormIsRefused() {
        let named = #"Content-Disposition: form-data; name="media""#
        let refused: [(String, [UInt8])] = [
            ("no boundary at all", Array("just bytes".utf8)),
            ("no closing boundary", Array(body([(named, [1, 2])]).dropLast(4))),
            ("a part without a name", body([("Content-Disposition: form-data", [1])])),
            ("a part of another disposition", body([(#"Content-Disposition: attachment; name="x""#, [1])])),
            ("a header line without a colon", body([(named + "\r\nnonsense", [1])])),
            ("no header at all", Array("--\(boundary)\r\n\r\nx\r\n--\(boundary)--".utf8)),
            ("a header that never ends", Array("--\(boundary)\r\n\(named)".utf8) + [UInt8](repeating: 65, count: 20000)),
            ("a boundary line that goes on", Array("--\(boundary)x\r\n\(named)\r\n\r\n\r\n--\(boundary)--".utf8)),
            ("too many parts", body(Array(repeating: (named, [UInt8]()), count: MultipartForm.mostParts + 1))),
        ]
        for (what, bytes) in refused {
            #expect(throws: HTTPError.self, "\(what)") { _ = try parse(bytes) }
            #expect((try? parse(bytes)) == nil, "\(what)")
        }
    }

    /// The file reader reads what the window reader does.
    @Test func aBodyInAFileIsReadTheSame() throws {
        let folder = TemporaryDirectory("multipart")
        let bytes = body([(#"Content-Disposition: form-data; name="media"; filename="a.jpg""#, [1, 2, 3])])
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("body")))
        #expect(try MultipartForm(path: folder.file("body"), size: bytes.count, boundary: boundary) == (try parse(bytes)))
    }
}
