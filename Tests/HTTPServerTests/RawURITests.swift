import Testing

@testable import HTTPServer

@Suite struct RawURITests {
    @Test func decodesThePathAndTheQuery() throws {
        let uri = try RawURI(Array("/photos/a%20b/%C3%A9?x=1&y=a+b%2B&x=2&flag&=empty".utf8))
        #expect(uri.path == "/photos/a b/é")
        #expect(uri.query == ["x": "1", "y": "a b+", "flag": "", "": "empty"])
        #expect(RawURI.loggable(ArraySlice("/photos/a b/é".utf8)) == "/photos/a%20b/%C3%A9")
    }

    @Test func keepsEscapesThatAreNotEscapes() throws {
        #expect(try RawURI(Array("/a%zz%4".utf8)).path == "/a%zz%4")
    }

    @Test(arguments: ["/a/..b/c.d/.hidden", "/", "/a//b", "/..a", "/a.."])
    func acceptsDotsInsideNames(target: String) throws {
        #expect(try RawURI(Array(target.utf8)).path == target)
    }

    @Test(arguments: [
        "/a%00", "/a%00b", "/?q=%00", "/%2e%2e/etc", "/%2E./x", "/.%2e", "/../x", "/a/./b", "/a/..", "/.", "/a\\b", "/a%5cb", "/a%5Cb",
        "a/b", "", "*", "http://host/x", "/a%2f..%2fb", "/%ff", "/a\u{0}b",
    ])
    func refuses(target: String) {
        #expect(throws: HTTPError.self) { try RawURI(Array(target.utf8)) }
        do {
            _ = try RawURI(Array(target.utf8))
        } catch {
            #expect(error.status == 400)
            #expect(error.code == "invalid_path")
        }
    }

    @Test func loggablePathsStayOnOneLine() {
        #expect(RawURI.loggable(ArraySlice("/a b\n\u{1b}[31m".utf8)) == "/a%20b%0A%1B[31m")
    }
}
