import CameraRollServer
import Credentials
import Foundation
import TestSupport
import Testing

@testable import HTTPServer

// Serialized like APITests: each test runs a server, and all of them at once would hold thousands
// of descriptors.
/// Who may ask what: the machine itself freely; anyone else after signing in, with the CSRF
/// token on every change; a picker's caller through capability URLs only. A remote client is
/// a request the gate sees from a LAN address; signing in itself goes over the real server.
@Suite(.serialized) struct AccessTests {
    let live: LiveServer
    let router: Router

    init() throws {
        live = try LiveServer()
        router = live.app.router
    }

    /// What the gate answers a request from `address`, nil when it lets it through.
    func gate(
        _ method: String, _ target: String, from address: String = "192.168.1.20", headers: [(String, String)] = [],
        through router: Router? = nil
    ) throws -> Response? {
        let router = router ?? self.router
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let field = pair.split(separator: "=", maxSplits: 1).map(String.init)
            query[field[0]] = field.count > 1 ? field[1].removingPercentEncoding : ""
        }
        guard case .found(let route, let parameters) = router.match(method: method, path: parts[0]) else {
            Issue.record("no route for \(method) \(target)")
            return nil
        }
        var all = headers.contains { $0.0 == "Host" } ? [] : [("Host", "192.168.1.5:8443")]
        all += headers
        let request = Request(
            method: method, path: parts[0], query: query, headers: Headers(all), remoteAddress: address, parameters: parameters)
        let gate = try #require(router.gate)
        return gate(request, route)
    }

    func code(_ response: Response?) -> String? {
        guard case .bytes(let bytes) = response?.body else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["code"] as? String
    }

    func signIn(_ password: String) async throws -> LiveServer.Reply {
        try await live.request("POST", "/api/session", body: try JSONEncoder().encode(["password": password]))
    }

    @Test func theMachineItselfNeedsNoSignInAndOthersDo() throws {
        #expect(try gate("GET", "/api/assets", from: "127.0.0.1") == nil)
        #expect(try gate("GET", "/api/assets", from: "::1") == nil)
        #expect(code(try gate("GET", "/api/assets")) == "sign_in_required")
        #expect(try gate("GET", "/api/assets")?.status == 401)
        #expect(code(try gate("DELETE", "/api/assets/abc")) == "sign_in_required")
        #expect(code(try gate("GET", "/media/abc/original")) == "sign_in_required")
        let page = try gate("GET", "/library")
        #expect(page?.status == 303 && page?.headers["Location"] == "/signin?next=/library")
        for open in ["/healthz", "/signin", "/api/session", "/app/app.js"] {
            #expect(try gate("GET", open) == nil, "\(open) is open")
        }
        #expect(try gate("POST", "/api/picker/sessions") == nil, "a picker's caller needs no sign-in")
        #expect(code(try gate("POST", "/api/picker/sessions/abc/events")) == "sign_in_required", "but picking does")
    }

    /// Phones download the authority before they can trust the sign-in page, so the route is open;
    /// a server given no authority (plain HTTP, or the user's certificate) has none to give.
    @Test func theAuthorityRouteIsOpenAndAnswersNotFoundWithoutAnAuthority() async throws {
        #expect(try gate("GET", "/cameraroll-authority.pem") == nil)
        let reply = try await live.get("/cameraroll-authority.pem")
        #expect(reply.status == 404)
        #expect(reply.json["code"] as? String == "not_found")
    }

    @Test func anUnreadablePasswordIsAConflictThatNamesNoFile() async throws {
        let root = live.library.folder.root
        try Data("not a password".utf8).write(to: URL(fileURLWithPath: root).appendingPathComponent("owner.json"))
        let reply = try await signIn("anything at all")
        #expect(reply.status == 409 && reply.json["code"] as? String == "unreadable_owner")
        #expect(!String(decoding: reply.body, as: UTF8.self).contains(root), "the data folder's path is the server's own")
    }

    /// A person signs in by name; a password alone is the first admin's. A name nobody has is
    /// refused as a wrong password is, in the same words, so nobody learns who is here.
    @Test func peopleSignInByNameAndAPasswordAloneIsTheFirstAdmins() async throws {
        try await UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root)).setFirstAdminPassword("owner's secret")
        func signIn(_ fields: [String: String]) async throws -> LiveServer.Reply {
            try await live.request("POST", "/api/session", body: try JSONEncoder().encode(fields))
        }
        let byName = try await signIn(["user": " Owner", "password": "owner's secret"])
        #expect(byName.status == 200)
        #expect((byName.json["user"] as? [String: Any])?["name"] as? String == "owner")
        #expect((byName.json["user"] as? [String: Any])?["admin"] as? Bool == true)
        let nobody = try await signIn(["user": "mallory", "password": "owner's secret"])
        let wrong = try await signIn(["user": "owner", "password": "not the secret"])
        #expect(nobody.status == 401 && wrong.status == 401)
        #expect(nobody.json["code"] as? String == "wrong_password" && wrong.json["code"] as? String == "wrong_password")
        #expect(nobody.json["message"] as? String == wrong.json["message"] as? String)

        let token = try #require(byName.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let state = try await live.get("/api/session", headers: ["Cookie": token])
        #expect(state.json["signedIn"] as? Bool == true)
        #expect((state.json["user"] as? [String: Any])?["id"] as? Int == 1)
        #expect(try await signIn(["password": "owner's secret"]).status == 200)
    }

    @Test func signingInGivesACookieAndChangesNeedTheCSRFToken() async throws {
        let before = try await signIn("anything at all")
        #expect(before.status == 409 && before.json["code"] as? String == "no_password")
        try await UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root)).setFirstAdminPassword("owner's secret")
        #expect(try await signIn("not the secret").status == 401)
        let signedIn = try await signIn("owner's secret")
        #expect(signedIn.status == 200)
        let cookie = try #require(signedIn.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("Secure") && cookie.contains("SameSite=Strict"))
        let token = try #require(cookie.split(separator: ";").first.map(String.init))
        let csrf = try #require(signedIn.json["csrfToken"] as? String)

        #expect(try gate("GET", "/api/assets", headers: [("Cookie", token)]) == nil)
        #expect(try gate("GET", "/library", headers: [("Cookie", "theme=dark; " + token)]) == nil)
        #expect(code(try gate("DELETE", "/api/assets/abc", headers: [("Cookie", token)])) == "csrf")
        #expect(
            code(
                try gate(
                    "DELETE", "/api/assets/abc",
                    headers: [("Cookie", token), ("X-CSRF-Token", (csrf.first == "0" ? "1" : "0") + csrf.dropFirst())])) == "csrf")
        #expect(try gate("DELETE", "/api/assets/abc", headers: [("Cookie", token), ("X-CSRF-Token", csrf)]) == nil)

        let signedOut = try await live.request("DELETE", "/api/session", headers: ["Cookie": token])
        #expect(signedOut.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(code(try gate("GET", "/api/assets", headers: [("Cookie", token)])) == "sign_in_required")
    }

    /// Signs in through the route's own handler, as a request from `address` would: over the
    /// real server every request comes from loopback, and the lock-out is about addresses.
    func signIn(_ password: String, from address: String) async throws -> Response {
        guard case .found(let route, let parameters) = router.match(method: "POST", path: "/api/session") else {
            throw HTTPError.notFound()
        }
        let body = try JSONEncoder().encode(["password": password])
        let file = live.directory.file("sign-in-\(UUID().uuidString).json")
        try body.write(to: URL(fileURLWithPath: file))
        let request = Request(
            method: "POST", path: "/api/session", headers: Headers([("Host", "192.168.1.5:8443")]), remoteAddress: address,
            parameters: parameters, body: RequestBody(path: file, size: body.count))
        #expect(router.gate?(request, route) == nil, "signing in is open to everyone")
        do {
            return try await route.handler(request)
        } catch let error as any HTTPResponseError {
            return error.response
        }
    }

    /// Guesses from ever new networks lock nobody out: each network (here an IPv6 /64 each) has
    /// its own count, and everyone's together only slow sign-ins down. The owner, asking from an
    /// address nobody has guessed from, gets in while the guesses are still being checked, and
    /// after them.
    @Test func guessesFromFiftyFreshIPv6NetworksDoNotLockTheOwnerOut() async throws {
        try await UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root)).setFirstAdminPassword("owner's secret")
        let (guesses, during) = try await withThrowingTaskGroup(of: (Bool, Response).self) { group in
            for index in 0..<50 {
                group.addTask { (false, try await signIn("guess \(index)", from: "2001:db8:\(String(index, radix: 16))::\(index + 1)")) }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(200))
                return (true, try await signIn("owner's secret", from: "2001:db8:ffff::1"))
            }
            var guesses: [Response] = []
            var owner: Response?
            for try await (isOwner, response) in group {
                if isOwner { owner = response } else { guesses.append(response) }
            }
            return (guesses, owner)
        }
        #expect(guesses.count == 50 && guesses.allSatisfy { code($0) == "wrong_password" }, "each guess is checked, none refused")
        #expect(during?.status == 200, "\(code(during) ?? "no answer")")
        let after = try await signIn("owner's secret", from: "2001:db8:fffe::2")
        #expect(after.status == 200, "\(code(after) ?? "")")
    }

    /// An IPv6 client holds its whole /64, so failures from any of its addresses count against
    /// the others; an IPv4 client seen through a dual-stack socket (`::ffff:a.b.c.d`) is that
    /// IPv4 address. A locked-out client is refused even the right password.
    @Test func failuresCountPerAddressAndPerIPv6Network() async throws {
        try await UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root)).setFirstAdminPassword("owner's secret")
        for index in 1...10 {
            #expect(code(try await signIn("guess", from: "2001:db8:7:8:\(index)::\(index)")) == "wrong_password")
        }
        let sameNetwork = try await signIn("owner's secret", from: "2001:db8:7:8:ffff::1")
        #expect(code(sameNetwork) == "locked_out" && sameNetwork.headers["Retry-After"] != nil)
        #expect(code(try await signIn("owner's secret", from: "2001:0db8:0007:0008::abcd")) == "locked_out", "however it is written")
        #expect(try await signIn("owner's secret", from: "2001:db8:7:9::1").status == 200, "the next /64 is another network")

        for _ in 0..<5 { #expect(code(try await signIn("guess", from: "::ffff:192.0.2.7")) == "wrong_password") }
        #expect(code(try await signIn("owner's secret", from: "192.0.2.7")) == "locked_out")
        #expect(code(try await signIn("owner's secret", from: "::ffff:192.0.2.7")) == "locked_out")
        #expect(try await signIn("owner's secret", from: "192.0.2.8").status == 200, "an IPv4 address is its own network")

        for _ in 0..<5 { #expect(code(try await signIn("guess", from: "2001:db8:5::5")) == "wrong_password") }
        #expect(code(try await signIn("owner's secret", from: "2001:db8:5::5")) == "locked_out", "five lock an address")
        #expect(try await signIn("owner's secret", from: "2001:db8:5::6").status == 200, "but not its network, yet")
    }

    @Test func repeatedWrongPasswordsLockTheAskerOut() async throws {
        try await UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root)).setFirstAdminPassword("owner's secret")
        for _ in 0..<5 { #expect(try await signIn("guess").status == 401) }
        let locked = try await signIn("owner's secret")
        #expect(locked.status == 429)
        #expect(locked.json["code"] as? String == "locked_out")
        #expect(Int(locked.header("Retry-After") ?? "") ?? 0 > 800)
    }

    @Test func changesFromAnotherSitesPagesAreRefused() throws {
        let foreign = try gate("POST", "/api/assets", from: "127.0.0.1", headers: [("Origin", "http://evil.example")])
        #expect(foreign?.status == 403 && code(foreign) == "cross_origin")
        #expect(try gate("POST", "/api/assets", from: "127.0.0.1", headers: [("Origin", "https://192.168.1.5:8443")]) == nil)
        // Being on this computer makes no other site's page the owner, for reading either.
        let read = try gate("GET", "/api/assets", from: "127.0.0.1", headers: [("Origin", "http://evil.example")])
        #expect(read?.status == 403 && code(read) == "cross_origin")
    }

    @Test func pagesOfOtherSitesGetTheChooserScriptAndTheirAppsPickerOnly() async throws {
        let evil = [("Origin", "http://evil.example")]
        #expect(try gate("GET", "/app/chooser.js", from: "127.0.0.1", headers: evil) == nil)
        #expect(code(try gate("GET", "/app/picker.js", from: "127.0.0.1", headers: evil)) == "cross_origin")
        #expect(code(try gate("POST", "/api/picker/sessions", from: "127.0.0.1", headers: evil)) == "cross_origin")
        #expect(code(try gate("OPTIONS", "/api/picker/sessions", from: "127.0.0.1", headers: evil)) == "cross_origin")
        // What a page loads without an Origin (an image) says where it comes from all the same.
        let image = [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "no-cors")]
        #expect(code(try gate("GET", "/media/abc/original", from: "127.0.0.1", headers: image)) == "cross_origin")
        #expect(
            code(try gate("GET", "/media/abc/original", from: "127.0.0.1", headers: [("Sec-Fetch-Site", "same-site")])) == "cross_origin")
        #expect(try gate("GET", "/media/abc/original", from: "127.0.0.1", headers: [("Sec-Fetch-Site", "same-origin")]) == nil)
        // Following a link to a page of ours is the user's own doing.
        #expect(
            try gate("GET", "/", from: "127.0.0.1", headers: [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "navigate")]) == nil)

        try await AllowedApps(dataFolder: URL(fileURLWithPath: live.directory.path)).add(
            try WebOrigin("https://blog.example"), name: "Blog", owner: 1)
        let blog = [("Origin", "https://blog.example")]
        #expect(try gate("OPTIONS", "/api/picker/sessions", headers: blog) == nil)
        #expect(try gate("POST", "/api/picker/sessions", headers: blog) == nil)
        #expect(try gate("POST", "/api/picker/sessions/abc/events", headers: blog) == nil, "its handler lets it cancel its own only")
        #expect(code(try gate("GET", "/api/assets", from: "127.0.0.1", headers: blog)) == "cross_origin")
        #expect(code(try gate("DELETE", "/api/apps/x", from: "127.0.0.1", headers: blog)) == "cross_origin")
        #expect(code(try gate("GET", "/media/abc/original", from: "127.0.0.1", headers: blog)) == "cross_origin", "no link")
    }

    /// Browsers write an origin one way; another spelling of an allowed site is no browser's, and
    /// gets nothing of that site's (two `Origin` headers neither).
    @Test func onlyTheOriginABrowserWritesIsTheAllowedSite() async throws {
        let live = try LiveServer(live.directory, library: live.library, transport: .socket)
        try await AllowedApps(dataFolder: URL(fileURLWithPath: live.directory.path)).add(
            try WebOrigin("https://blog.example"), name: "Blog", owner: 1)
        func create(_ origins: [String]) async throws -> (Int, String?) {
            var head = "POST /api/picker/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n"
            for origin in origins { head += "Origin: \(origin)\r\n" }
            let reply = await (try await RawConnection.open(port: live.port, sending: Array((head + "\r\n{}").utf8))).readReply()
            return (reply?.status ?? 0, reply?.headers["Access-Control-Allow-Origin"])
        }
        #expect(try await create(["https://blog.example"]) == (201, "https://blog.example"))
        for spelling in ["HTTPS://BLOG.EXAMPLE", "https://Blog.example", "https://blog.example/", "https://blog.example:443"] {
            #expect(try await create([spelling]) == (403, nil), "\(spelling)")
        }
        #expect(try await create(["https://blog.example", "https://blog.example"]) == (403, nil))
        #expect(try gate("OPTIONS", "/api/picker/sessions", headers: [("Origin", "https://blog.example/")])?.status == 403)
    }

    /// The wire another site's page sees, over the real server: CORS for its own app only, never
    /// with credentials, its own sessions only, and links that die with the app.
    @Test func anAllowedSitesPickerOverTheWire() async throws {
        let photo = try #require(try await live.upload("photos/exifsamples__jolla.jpg").json["id"] as? String)
        let apps = AllowedApps(dataFolder: URL(fileURLWithPath: live.directory.path))
        let app = try await apps.add(try WebOrigin("https://blog.example"), name: "My blog", linkLifetime: 120, owner: 1)
        let blog = ["Origin": "https://blog.example"]
        let preflight = try await live.request(
            "OPTIONS", "/api/picker/sessions", headers: blog.merging(["Access-Control-Request-Method": "POST"]) { $1 })
        #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Origin") == "https://blog.example")
        #expect(
            preflight.header("Access-Control-Allow-Methods") == "GET, POST" && preflight.header("Access-Control-Allow-Credentials") == nil)
        let stranger = try await live.request("OPTIONS", "/api/picker/sessions", headers: ["Origin": "https://evil.example"])
        #expect(stranger.status == 403 && stranger.header("Access-Control-Allow-Origin") == nil)

        let created = try await live.request(
            "POST", "/api/picker/sessions", body: Data(#"{"sourceType":"photoLibrary"}"#.utf8), headers: blog)
        #expect(created.status == 201 && created.header("Access-Control-Allow-Origin") == "https://blog.example")
        #expect((created.json["client"] as? [String: String]) == ["origin": "https://blog.example", "name": "My blog"])
        let id = try #require(created.json["id"] as? String)
        let other = try await live.get("/api/picker/sessions/\(id)", headers: ["Origin": "https://evil.example"])
        #expect(other.status == 403, "another site is refused before it can ask")
        try await apps.add(try WebOrigin("https://shop.example"), name: "Shop", owner: 1)
        #expect(
            try await live.get("/api/picker/sessions/\(id)", headers: ["Origin": "https://shop.example"]).status == 404, "not its session")
        let choose = try JSONEncoder().encode(["event": "choose", "assetID": photo])
        let forged = try await live.request("POST", "/api/picker/sessions/\(id)/events", body: choose, headers: blog)
        #expect(forged.status == 403, "the user's steps come from the picker's page")

        let before = Date().timeIntervalSince1970
        for body in [#"{"event":"open"}"#, String(decoding: choose, as: UTF8.self)] {
            _ = try await live.request("POST", "/api/picker/sessions/\(id)/events", body: Data(body.utf8))
        }
        let finished = try await live.get("/api/picker/sessions/\(id)", headers: blog)
        let after = Date().timeIntervalSince1970
        let info = try #require(finished.json["info"] as? [String: Any])
        let link = try #require(info["originalImage"] as? String)
        #expect(link.contains("&app=\(app.id)"))
        let expires = try #require(Int(link.components(separatedBy: "cap=")[1].split(separator: ".")[1]))
        // Made between the two moments, however long a loaded suite kept the requests waiting.
        #expect(
            Double(expires) >= (before + 120).rounded(.down) && Double(expires) <= (after + 120).rounded(.up), "the app's link lifetime")
        let bytes = try await live.get(link, headers: blog)
        #expect(bytes.status == 200 && bytes.header("Access-Control-Allow-Origin") == "https://blog.example")
        #expect(bytes.header("Cross-Origin-Resource-Policy") == "cross-origin" && bytes.header("Cache-Control") == "private, no-cache")
        #expect(try await live.get(link, headers: ["Origin": "https://shop.example"]).status == 403, "another app's page")

        try await apps.remove(app.id, owner: 1)
        let revoked = try await live.get(link, headers: blog)
        #expect(revoked.status == 403 && revoked.header("Access-Control-Allow-Origin") == nil)
        #expect(try await live.get(link).status == 200, "the owner, on this computer, still sees the photo")
    }

    @Test func aPickersCallerGetsThePickedItemsOnly() async throws {
        let picked = try #require(try await live.upload("photos/exifsamples__jolla.jpg").json["id"] as? String)
        let other = try #require(try await live.upload("photos/lychee__train.jpg").json["id"] as? String)
        let session = try #require(
            try await live.request("POST", "/api/picker/sessions", body: Data(#"{"sourceType":"photoLibrary"}"#.utf8)).json["id"] as? String
        )
        for (event, asset) in [("open", nil), ("choose", picked)] as [(String, String?)] {
            var body = ["event": event]
            body["assetID"] = asset
            _ = try await live.request("POST", "/api/picker/sessions/\(session)/events", body: try JSONEncoder().encode(body))
        }
        let info = try #require(try await live.get("/api/picker/sessions/\(session)").json["info"] as? [String: Any])
        let original = try #require(info["originalImage"] as? String)
        #expect(try gate("GET", original) == nil)
        #expect(code(try gate("GET", original.replacingOccurrences(of: picked, with: other))) == "sign_in_required")
        #expect(code(try gate("GET", original.replacingOccurrences(of: "/original?", with: "/thumbnail?"))) == "sign_in_required")
        #expect(code(try gate("GET", original.replacingOccurrences(of: "cap=", with: "cap=1"))) == "sign_in_required")
        #expect(code(try gate("GET", original + "&edit=0,0,10,10")) == "sign_in_required", "an edit it was not made of")
        #expect(code(try gate("GET", "/api/assets/\(picked)")) == "sign_in_required", "the API stays closed")
        // The key is the data folder's: the link still opens on a server started again over it.
        #expect(try gate("GET", original, through: try WebApp(library: live.library).router) == nil)
    }

    @Test func requestsForNamesTheServerDoesNotGoByAreRefused() throws {
        // DNS rebinding: a site's name made to point at this computer reaches it as loopback.
        let rebound = try gate("GET", "/api/assets", from: "127.0.0.1", headers: [("Host", "evil.example:8080")])
        #expect(rebound?.status == 421 && code(rebound) == "unknown_host")
        for host in ["127.0.0.1:8080", "[::1]:8080", "localhost:8080", "LOCALHOST", "192.168.1.5", ProcessInfo.processInfo.hostName] {
            #expect(try gate("GET", "/api/assets", from: "127.0.0.1", headers: [("Host", host)]) == nil, "\(host)")
        }
        let named = try WebApp(library: live.library, names: ["photos.example"]).router
        guard case .found(let route, _) = named.match(method: "GET", path: "/healthz") else { return }
        let request = Request(method: "GET", path: "/healthz", headers: Headers([("Host", "photos.example:8443")]))
        let gate = try #require(named.gate)
        #expect(gate(request, route) == nil)
    }

    @Test func hostsAreAddressesOrTheServersNames() {
        let names: Set<String> = ["localhost", "photos.example"]
        for host in ["127.0.0.1", "10.0.0.255:8080", "192.168.1.5.", "Photos.Example:443", "localhost.", "[fe80::1]:80", "0.0.0.0:"] {
            #expect(Access.accepts(host: host, names: names), "\(host)")
        }
        for host in [
            "256.1.1.1", "1.2.3", "1.2.3.4.5", "1..2.3", "1.2.3.4:80x", "0001.2.3.4", "evil.example", "", ":80", "photos.example.com",
        ] {
            #expect(!Access.accepts(host: host, names: names), "\(host)")
        }
    }

    @Test func guessesSentAtOnceAllCountTowardsTheLockOut() async throws {
        try await UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root)).setFirstAdminPassword("owner's secret")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 { group.addTask { try await signIn("guess \(index)").status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 })
        let locked = try await signIn("owner's secret")
        #expect(locked.status == 429 && locked.json["code"] as? String == "locked_out")
    }

    @Test func aNewPasswordSignsEveryoneOutAtOnce() async throws {
        let owner = UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root))
        try await owner.setFirstAdminPassword("owner's secret")
        let signedIn = try await signIn("owner's secret")
        let token = try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        #expect(try gate("GET", "/api/assets", headers: [("Cookie", token)]) == nil)
        try await owner.setFirstAdminPassword("a new secret")
        #expect(code(try gate("GET", "/api/assets", headers: [("Cookie", token)])) == "sign_in_required")
    }
}
