import Testing

@testable import HTTPServer

@Suite struct RangeRequestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let header: String?
        let total: Int
        let expected: RangeRequest
        var testDescription: String { "\(header ?? "none") of \(total)" }

        init(_ header: String?, _ total: Int, _ expected: RangeRequest) {
            self.header = header
            self.total = total
            self.expected = expected
        }
    }

    @Test(arguments: [
        Case(nil, 10, .whole),
        Case("bytes=0-4", 10, .part(offset: 0, length: 5)),
        Case("bytes=5-", 10, .part(offset: 5, length: 5)),
        Case("bytes=-3", 10, .part(offset: 7, length: 3)),
        Case("bytes=-30", 10, .part(offset: 0, length: 10)),
        Case("bytes=8-100", 10, .part(offset: 8, length: 2)),
        Case("bytes=9-9", 10, .part(offset: 9, length: 1)),
        Case("BYTES=0-0", 10, .part(offset: 0, length: 1)),
        Case("bytes=0-99999999999999999999999", 10, .part(offset: 0, length: 10)),
        Case("bytes=10-", 10, .unsatisfiable),
        Case("bytes=10-20", 10, .unsatisfiable),
        Case("bytes=5-3", 10, .unsatisfiable),
        Case("bytes=-0", 10, .unsatisfiable),
        Case("bytes=0-0", 0, .unsatisfiable),
        Case("bytes=-5", 0, .unsatisfiable),
        Case("bytes=99999999999999999999999-", 10, .unsatisfiable),
        Case("bytes=0-1,5-6", 10, .whole),
        Case("bytes=0-1,", 10, .whole),
        Case("items=0-1", 10, .whole),
        Case("bytes=a-b", 10, .whole),
        Case("bytes=-", 10, .whole),
        Case("bytes=1-2-3", 10, .whole),
        Case("bytes=+1-2", 10, .whole),
        Case("bytes 0-1", 10, .whole),
    ])
    func parses(_ example: Case) {
        #expect(RangeRequest(header: example.header, total: example.total) == example.expected)
    }
}
