import Testing

@testable import HTTPServer

@Suite struct HeadersTests {
    @Test func namesAreComparedWithoutCaseAndKeepTheirSpelling() {
        let headers = Headers([("Content-Type", "text/plain"), ("x-custom", "1")])
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers["X-Custom"] == "1")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Types"] == nil)
        #expect(headers.map(\.name) == ["Content-Type", "x-custom"])
    }

    @Test func repeatsKeepTheirOrderAndSettingReplacesThemAll() {
        var headers = Headers()
        headers.add("Accept", "a")
        headers.add("Vary", "x")
        headers.add("accept", "b")
        #expect(headers.values("ACCEPT") == ["a", "b"])
        #expect(headers["Accept"] == "a")
        headers["Accept"] = "c"
        #expect(headers.values("accept") == ["c"])
        #expect(headers.map(\.name) == ["Vary", "Accept"])
        headers["Vary"] = nil
        #expect(headers.map(\.name) == ["Accept"])
        #expect(!headers.contains("Vary"))
    }

    @Test func valuesComeBackExactly() {
        let values = ["", "ü and 日本", "with\u{0}nul", String(repeating: "long ", count: 400)]
        var headers = Headers()
        for (index, value) in values.enumerated() { headers.add("X-\(index)", value) }
        #expect(values.indices.map { headers["x-\($0)"] } == values)
        #expect(headers.map(\.value) == values)
    }

    @Test func equalityIsFieldByFieldInOrder() {
        #expect(Headers([("A", "1"), ("B", "2")]) == Headers([("A", "1"), ("B", "2")]))
        #expect(Headers([("A", "1"), ("B", "2")]) != Headers([("B", "2"), ("A", "1")]))
        #expect(Headers([("A", "1")]) != Headers([("a", "1")]))
        var built = Headers([("A", "0"), ("B", "2")])
        built["A"] = "1"
        #expect(built == Headers([("B", "2"), ("A", "1")]))
    }

    @Test func cStringsAreWhatLibmicrohttpdGets() {
        let headers = Headers([("ETag", "\"v1\""), ("X-Empty", "")])
        var seen: [String] = []
        headers.withCStrings { name, value in seen.append("\(String(cString: name))=\(String(cString: value))") }
        #expect(seen == ["ETag=\"v1\"", "X-Empty="])
    }
}
