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
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n"), "the charset first")
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
