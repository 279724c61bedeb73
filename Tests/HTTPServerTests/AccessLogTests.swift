import Testing

@testable import HTTPServer

@Suite struct AccessLogTests {
    @Test func oneLineWithoutTheQuery() {
        let line = AccessLog.line(
            method: "GET", rawURI: Array("/media/a1/thumbnail?token=secret".utf8), status: 200, bodyBytes: 9216,
            elapsed: .milliseconds(12) + .microseconds(700))
        #expect(line == "GET /media/a1/thumbnail 200 9216 12ms")
    }

    @Test func unknownsAreDashesAndOddBytesAreEscaped() {
        let line = AccessLog.line(
            method: "PUT", rawURI: Array("/a b\n\u{1b}[31m/é".utf8), status: nil, bodyBytes: nil, elapsed: .seconds(61))
        #expect(line == "PUT /a%20b%0A%1B[31m/%C3%A9 - - 61000ms")
    }
}
