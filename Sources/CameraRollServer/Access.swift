import Credentials
import Executors
import Foundation
package import HTTPServer
import IPAddress
import PhotoLibrary

/// Who may ask what. The machine itself (loopback) is the first admin in the embedded mode.
/// Anyone else signs in as one of the people (`UserAccounts`) and sends the session's CSRF
/// token with every change; a picker's caller
/// gets only the items picked, through capability URLs. Pages of other sites get nothing but the
/// chooser script and, for the sites the owner allows, the picker's session API and the links
/// to what was picked for them (see `CrossSite`), whoever asks: being on this computer makes
/// nobody's page the owner. Any request sent to a name the server does not go by is refused
/// (DNS rebinding: a site whose name is made to point at this computer).
package struct Access: Sendable {
    package static let cookie = "cameraroll_session"
    let sessions: SignInSessions
    let capabilities: CapabilityURLs
    /// The tokens of links for people without an account, signed with the same key.
    let shareTokens: ShareTokens
    /// What a passkey signs, made and checked by any server of the library with the same key.
    let passkeyChallenges: PasskeyChallenges
    let lockOut: LockOut
    let passwordChecks = PasswordChecks()
    let trustedClients = TrustedClients()
    let apps: AllowedApps
    let users: UserAccounts
    /// Where the people's passwords are read for a sign-in: a thread of its own, not the
    /// cooperative pool.
    let disk = BlockingExecutor(name: "credentials", threads: 1)
    /// Host names requests may be sent to, lowercased; IP addresses are always accepted.
    let names: Set<String>

    /// Whether a request from this machine is the owner's. Not when servers share a library: then
    /// a load balancer or another server on this machine asks for everyone.
    let loopbackIsOwner: Bool

    /// `capabilityKey`: the one servers over a shared database share; by default the data folder's.
    /// `shared`: when servers share a library, what they keep together to sign people in (the
    /// password, sessions signed out, failures counted, the allowed apps); nil for the data folder's.
    init(dataFolder: URL, names: [String], capabilityKey: CapabilityKey? = nil, shared: SharedCredentials? = nil) throws(CredentialsError) {
        loopbackIsOwner = shared == nil
        let key: CapabilityKey
        if let capabilityKey {
            key = capabilityKey
        } else {
            key = try CapabilityKey.kept(in: dataFolder)
        }
        capabilities = CapabilityURLs(key: key)
        shareTokens = ShareTokens(key: key)
        passkeyChallenges = PasskeyChallenges(key: key)
        lockOut = LockOut(shared: shared)
        if let shared {
            users = UserAccounts(shared: shared)
            apps = AllowedApps(shared: shared)
            sessions = SignInSessions(signedWith: key, shared: shared)
        } else {
            users = UserAccounts(dataFolder: dataFolder)
            apps = AllowedApps(dataFolder: dataFolder)
            sessions = SignInSessions(file: SignInSessions.file(in: dataFolder))
        }
        let host = ProcessInfo.processInfo.hostName.lowercased()
        self.names = Set(["localhost", host, "\(host).local"] + names.map { $0.lowercased() })
    }

    enum Rule {
        /// Anyone: health, sign-in, the pages' scripts, the local authority's certificate, and the
        /// picker service's caller side (creating a session, and waiting on one whose id it holds),
        /// and a shared link's guests, whose token (and password) its handlers check.
        case open
        /// The owner, or a capability URL for the asset named in the path.
        case media
        case owner
    }

    static func rule(method: String, pattern: String) -> Rule {
        switch (method, pattern) {
        case (_, "/healthz"), (_, "/signin"), (_, "/api/session"), ("POST", "/api/session/passkey"),
            ("POST", "/api/session/passkey/options"), (_, "/app/:file"), (_, "/sw.js"), (_, "/manifest.webmanifest"),
            (_, WebApp.authorityPath),
            ("POST", "/api/picker/sessions"), ("GET", "/api/picker/sessions/:id"), ("OPTIONS", _),
            // Pages whose data comes through the API: the first visit of a popup another site
            // opened carries no SameSite=Strict cookie, and the page's own requests do.
            ("GET", "/choose"), ("GET", "/picker/:id"):
            .open
        case _ where pattern.hasPrefix("/s/:token") || pattern.hasPrefix("/api/shared/:token"): .open
        case _ where pattern.hasPrefix("/media/:id/"): .media
        default: .owner
        }
    }

    static func isLocal(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.") || address == "localhost"
    }

    /// The request comes from this machine, and this machine is the owner's: a direct loopback
    /// connection. One a proxy forwarded is not, whatever client it names.
    func isOwnersMachine(_ request: Request) -> Bool {
        loopbackIsOwner && !request.throughProxy && IPAddress(request.remoteAddress)?.isLoopback == true
    }

    static let unknownLink = HTTPError(404, "link_not_found", "This link was revoked, or never was.")

    static func changes(_ method: String) -> Bool { method != "GET" && method != "HEAD" }

    /// The signed-in session the request's cookie names, if any.
    func session(of request: Request) -> SignInSessions.Session? {
        Self.cookie(Self.cookie, in: request).flatMap { sessions.session($0, stamps: stamps) }
    }

    /// Each person's current password stamp, which their sessions must carry.
    var stamps: SignInSessions.Stamps { { [users] in users.stamp(of: $0) } }

    /// Who asks: the person signed in, else, from this computer in the embedded mode, the
    /// first admin; nil for anyone else.
    func person(_ request: Request) -> UserAccounts.User? {
        if let session = session(of: request) { return users.user(id: session.user) }
        return isOwnersMachine(request) ? try? users.firstAdmin() : nil
    }

    /// Whose library a request works in: the person signed in, or this computer's (the first
    /// admin, who is `Owner.first` before anyone has a password); nil for anyone else.
    func owner(_ request: Request) -> Owner? {
        if let person = person(request) { return Owner(id: person.id) }
        return isOwnersMachine(request) ? .first : nil
    }

    /// The owner asks: from this computer, or signed in; never a page of another site.
    func isOwner(_ request: Request) -> Bool {
        CrossSite(request) == nil && (isOwnersMachine(request) || session(of: request) != nil)
    }

    /// The kind of media a request asks for, as capabilities name it: the last part of its path
    /// (`original`, `video`, or what a `without` link leaves out).
    static func mediaKind(_ request: Request) -> String {
        let parts = request.path.split(separator: "/")
        // A stream (`/media/<id>/stream` and the files under it) is the video, played while its
        // rendition is made: whoever may have one may have the other.
        if parts.count >= 3 && parts[2] == "stream" { return "video" }
        return parts.last.map(String.init) ?? ""
    }

    /// Whether the request carries a capability for what it asks: its asset, its kind of media
    /// (the path's last segment), for an edit's media the edit it names (`edit=`), and for a link
    /// given to another site an app that is still allowed (`app=`).
    func holdsCapability(_ request: Request, kind: String) -> Bool {
        let app = request.query["app"]
        if let app, apps.app(id: app) == nil { return false }
        return capabilities.grants(
            request.query["cap"], assetID: request.parameters["id"] ?? "", kind: kind, edit: request.query["edit"], app: app)
    }

    func gate(_ request: Request, _ route: Router.Route) -> Response? {
        if let host = request.headers["Host"], !accepts(host: host) {
            return HTTPError(
                421, "unknown_host", "This server does not go by that name. Use its address, or start it with --name for the name."
            ).response
        }
        let shared = route.pattern == WebApp.sharePath && Self.isShareLaunch(request)
        if !shared, let site = CrossSite(request) {
            return site.admits(request, route, self) ? nil : CrossSite.refusal.response
        }
        if isOwnersMachine(request) { return nil }
        switch Self.rule(method: route.method, pattern: route.pattern) {
        case .open:
            // A shared link's token that this library's key did not sign is refused before its
            // body is read or anything is looked up; its page says so in words.
            if let token = request.parameters["token"], route.pattern != "/s/:token", shareTokens.linkID(of: token) == nil {
                return Self.unknownLink.response
            }
            return nil
        case .media:
            if holdsCapability(request, kind: Self.mediaKind(request)) { return nil }
        case .owner:
            break
        }
        guard let session = session(of: request) else {
            if (route.method == "GET" || shared) && !route.pattern.hasPrefix("/api/") && !route.pattern.hasPrefix("/media/") {
                return Self.signInRedirect(request)
            }
            return HTTPError(401, "sign_in_required", "Sign in first.").response
        }
        trustedClients.vouch(for: request.remoteAddress)
        if Self.changes(request.method) && !shared && !SignInSessions.csrfMatches(session, request.headers["X-CSRF-Token"]) {
            return HTTPError(403, "csrf", "The request lacks this session's X-CSRF-Token; reload the page.").response
        }
        return nil
    }

    /// A share from another app, as the phone's browser launches the share target: a navigation
    /// it starts itself (`Sec-Fetch-Site: none`, which no page can send; browsers send these
    /// headers to HTTPS and localhost alone), whose `Origin` is `null`. No page of another site
    /// can make one, so it needs no CSRF token; it adds to the library and reads nothing.
    static func isShareLaunch(_ request: Request) -> Bool {
        let origins = request.headers.values("Origin")
        return request.method == "POST" && request.headers["Sec-Fetch-Site"] == "none" && request.headers["Sec-Fetch-Mode"] == "navigate"
            && request.headers["Sec-Fetch-Dest"] == "document" && (origins.isEmpty || origins == ["null"])
    }

    private static func signInRedirect(_ request: Request) -> Response {
        var next = URLComponents()
        next.path = request.path
        var target = URLComponents()
        target.path = "/signin"
        target.queryItems = [URLQueryItem(name: "next", value: next.string ?? "/")]
        return .seeOther(target.string ?? "/signin", saying: "Sign in first.")
    }

    /// An IP address (the name a LAN or loopback URL carries) or one of the server's names; a
    /// port may follow.
    func accepts(host: String) -> Bool { Self.accepts(host: host, names: names) }

    /// It runs for every request, so it reads the bytes and allocates only to look up a name.
    package static func accepts(host: String, names: Set<String>) -> Bool {
        var name = Substring(host).utf8[...]
        if name.first == UInt8(ascii: "[") { return name.contains(UInt8(ascii: "]")) }
        if let colon = name.lastIndex(of: UInt8(ascii: ":")), name[name.index(after: colon)...].allSatisfy(isDigit) {
            name = name[..<colon]
        }
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        return isIPv4Address(name) || names.contains(String(Substring(name)).lowercased())
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Four numbers of 0 to 255, by dots.
    private static func isIPv4Address(_ name: Substring.UTF8View.SubSequence) -> Bool {
        var numbers = 0
        var digits = 0
        var value = 0
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                numbers += 1
                digits = 0
                value = 0
            } else {
                guard isDigit(byte), digits < 3 else { return false }
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= 255 else { return false }
            }
        }
        return numbers == 3 && digits > 0
    }

    /// `Origin` is scheme://host[:port]: its authority must be the Host the request was sent to.
    static func sameOrigin(_ origin: String, _ request: Request) -> Bool {
        guard let host = request.headers["Host"], let separator = origin.range(of: "://") else { return false }
        return origin[separator.upperBound...].lowercased() == host.lowercased()
    }

    package static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 && parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}
