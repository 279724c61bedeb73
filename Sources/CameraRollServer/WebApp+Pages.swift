import Foundation
import HTTPServer

extension WebApp {
    /// A bundled file with its content type. They never change while the server runs, so they
    /// are read once, at start, and served from memory.
    struct WebFile: Sendable {
        let bytes: [UInt8]
        let type: String
    }

    /// The pages and their scripts and styles, from the bundled Web folder. Only files that
    /// exist there at start can be asked for, by name; nothing else on disk is reachable.
    func addPageRoutes(to router: inout Router) {
        let files = Self.webFiles()
        router.get("/") { _ in try Self.page(files, "index.html") }
        router.get("/library") { _ in try Self.page(files, "library.html") }
        router.get("/signin") { _ in try Self.page(files, "signin.html") }
        router.get("/settings") { _ in try Self.page(files, "settings.html") }
        // The chooser's popup, opened by another site's page (chooser.js).
        router.get("/choose") { _ in try Self.page(files, "choose.html") }
        // A shared link's page, for anyone holding it: its items come through the link's API.
        router.get("/s/:token") { _ in
            var response = try Self.page(files, "share.html")
            // The token is the key: no other site learns it from where a guest came from.
            response.headers["Referrer-Policy"] = "no-referrer"
            return response
        }
        router.get("/app/:file") { request in try Self.page(files, request.parameter("file")) }
        // The picker is presented inside the pages of this origin (picker-client.js), or fills
        // the chooser's popup.
        router.get("/picker/:id") { _ in try Self.page(files, "picker.html", framing: .sameOrigin) }
        router.get("/manifest.webmanifest") { _ in try Self.page(files, "manifest.webmanifest") }
        router.get(Self.authorityPath) { [authorityFile] _ in
            guard let certificate = authorityFile.flatMap({ FileManager.default.contents(atPath: $0) }) else {
                throw HTTPError.notFound("This server has no local authority: its certificate is not CameraRoll's own.")
            }
            // The type and a .crt name are what make phones offer to install it as an authority.
            var response = Response.bytes(Array(certificate), contentType: "application/x-x509-ca-cert")
            response.headers["Content-Disposition"] = #"attachment; filename="CameraRoll authority.crt""#
            return response
        }
        // At the root, so that it may control every page.
        let worker = Self.serviceWorker(files)
        router.get("/sw.js") { _ in
            guard let worker else { throw HTTPError.notFound() }
            var response = Response.bytes(worker, contentType: "text/javascript; charset=utf-8")
            response.headers["Cache-Control"] = "no-cache"
            return response
        }
    }

    /// sw.js, told the shell's URLs and a version that changes whenever a file of the shell
    /// does, so that browsers replace the cached shell exactly when there is a new one.
    private static func serviceWorker(_ files: [String: WebFile]) -> [UInt8]? {
        guard let body = files["sw.js"]?.bytes else { return nil }
        let assets = files.keys.filter { !$0.hasSuffix(".html") && $0 != "sw.js" }.sorted()
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for name in assets {
            for byte in name.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            for byte in files[name]?.bytes ?? [] { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        let shell = ["/", "/library", "/signin", "/picker/offline", "/manifest.webmanifest"] + assets.map { "/app/\($0)" }
        let list = shell.map { "\"\($0)\"" }.joined(separator: ", ")
        let header = "const version = \"\(String(digest, radix: 36))\";\nconst shell = [\(list)];\n"
        return Array(header.utf8) + body
    }

    private static func webFiles() -> [String: WebFile] {
        guard let folder = Bundle.module.url(forResource: "Web", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [:] }
        let types = [
            "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
            "svg": "image/svg+xml", "png": "image/png", "webmanifest": "application/manifest+json",
        ]
        var files = Dictionary(
            uniqueKeysWithValues: names.compactMap { name in
                FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { data in
                    (name, WebFile(bytes: Array(data), type: types[(name as NSString).pathExtension] ?? "application/octet-stream"))
                }
            })
        // The lines every page begins with, to its head's shared lines, are written once: a page's
        // first line says that they go there.
        guard let partial = files.removeValue(forKey: "page-head.html") else { return files }
        let head = String(decoding: partial.bytes, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("<!--") }
            .joined(separator: "\n")
        for (name, file) in files where name.hasSuffix(".html") {
            let page = String(decoding: file.bytes, as: UTF8.self)
            guard page.hasPrefix("<!-- page head"), let end = page.firstIndex(of: "\n") else { continue }
            files[name] = WebFile(bytes: Array(preloadingModules(head + page[end...], files).utf8), type: file.type)
        }
        return files
    }

    /// The page with every module its script imports, however deep, named in a `modulepreload`
    /// link after the script: the browser asks for them all at once, not each only once the
    /// module importing it has come (a round trip each before a first paint). Imports are ours,
    /// one a line: `import ... from "./name.js";`.
    static func preloadingModules(_ page: String, _ files: [String: WebFile]) -> String {
        let opening = #"<script type="module" src="/app/"#
        guard let script = page.range(of: opening), let quote = page[script.upperBound...].firstIndex(of: "\""),
            let lineEnd = page[quote...].firstIndex(of: "\n")
        else { return page }
        var reached = [String(page[script.upperBound..<quote])]
        var next = 0
        while next < reached.count {
            let source = files[reached[next]].map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            next += 1
            for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                guard let from = line.range(of: #" from "./"#), let end = line[from.upperBound...].firstIndex(of: "\"") else { continue }
                let module = String(line[from.upperBound..<end])
                if !reached.contains(module) { reached.append(module) }
            }
        }
        let links = reached.dropFirst().map { "\n  <link rel=\"modulepreload\" href=\"/app/\($0)\">" }.joined()
        return page[..<lineEnd] + links + page[lineEnd...]
    }

    private static func page(_ files: [String: WebFile], _ name: String, framing: Response.Framing = .none) throws -> Response {
        guard let file = files[name] else { throw HTTPError.notFound() }
        if file.type.hasPrefix("text/html") { return .html(String(decoding: file.bytes, as: UTF8.self), framing: framing) }
        var response = Response.bytes(file.bytes, contentType: file.type)
        response.headers["Cache-Control"] = "no-cache"
        return response
    }
}
