import Foundation
import TestSupport
import Testing

/// Text from files reaches JSON answers (a file name, EXIF words): `<`, `>` and `&` are written
/// as \u escapes, so that no browser tricked into reading the JSON as HTML finds markup in it,
/// and read back as themselves.
@Suite struct JSONEscapingTests {
    @Test func markupInAFileNameIsEscapedAndReadsBack() async throws {
        let live = try LiveServer()
        let name = "<img src=x onerror=alert(1)> & co.jpg"
        let reply = try await live.request(
            "POST", "/api/assets", body: try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/lychee__aarhus.jpg"))),
            headers: [
                "Content-Type": "application/octet-stream",
                "X-Filename": name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            ])
        let text = String(decoding: reply.body, as: UTF8.self)
        #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"))
        #expect(text.contains(#"\u003cimg src=x onerror=alert(1)\u003e \u0026 co.jpg"#))
        #expect(reply.json["originalFilename"] as? String == name)
    }
}
