import Foundation
import Testing

/// The pages' heads are written once (`page-head.html`) and put in each page as it is served.
@Suite struct PageRouteTests {
    @Test(arguments: ["/", "/library", "/signin", "/settings", "/choose", "/picker/x", "/app/index.html"])
    func everyPageBeginsItsHeadWithTheSharedLines(path: String) async throws {
        let live = try LiveServer()
        let page = try await live.get(path)
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        let html = String(decoding: page.body, as: UTF8.self)
        let head = try #require(html.range(of: "<head>\n  <meta charset=\"utf-8\">\n"), "the charset first, within the first bytes")
        #expect(head.lowerBound.utf16Offset(in: html) < 100)
        for line in [
            #"<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">"#,
            #"<link rel="stylesheet" href="/app/style.css">"#, #"<link rel="icon" href="/app/icon.svg" type="image/svg+xml">"#,
        ] {
            #expect(html.components(separatedBy: line).count == 2, "\(line) once")
        }
        #expect(!html.contains("page head"))
    }

    @Test func theSharedHeadIsNoPageOfItsOwn() async throws {
        #expect(try await LiveServer().get("/app/page-head.html").status == 404)
    }
}
