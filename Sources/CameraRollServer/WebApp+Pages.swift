import Foundation
import HTTPServer

extension WebApp {
    /// The pages and their scripts and styles, from the bundled Web folder. Only files that
    /// exist there at start can be asked for, by name; nothing else on disk is reachable.
    func addPageRoutes(to router: inout Router) {
        let files = Self.webFiles()
        router.get("/") { _ in try Self.page(files, "index.html") }
        router.get("/library") { _ in try Self.page(files, "library.html") }
        router.get("/signin") { _ in try Self.page(files, "signin.html") }
        router.get("/app/:file") { request in try Self.page(files, request.parameter("file")) }
        // The picker is presented inside the pages of this origin (picker-client.js).
        router.get("/picker/:id") { _ in try Self.page(files, "picker.html", framing: .sameOrigin) }
    }

    private static func webFiles() -> [String: String] {
        guard let folder = Bundle.module.url(forResource: "Web", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [:] }
        return Dictionary(uniqueKeysWithValues: names.map { ($0, folder.appendingPathComponent($0).path) })
    }

    private static func page(_ files: [String: String], _ name: String, framing: Response.Framing = .none) throws -> Response {
        guard let path = files[name], let data = FileManager.default.contents(atPath: path) else {
            throw HTTPError.notFound()
        }
        let types = [
            "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
            "svg": "image/svg+xml",
        ]
        let type = types[(name as NSString).pathExtension] ?? "application/octet-stream"
        if type.hasPrefix("text/html") { return .html(String(decoding: data, as: UTF8.self), framing: framing) }
        var response = Response.bytes(Array(data), contentType: type)
        response.headers["Cache-Control"] = "no-cache"
        return response
    }
}
