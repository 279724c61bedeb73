import Credentials
import HTTPServer

/// A request a page of another site made: it names its origin in `Origin`, or, for what pages
/// load without one (an image, a video), says so in `Sec-Fetch-Site`. A navigation is not one:
/// the user going to a page of ours is the user's own doing.
///
/// Such a page gets three things only: the chooser script (public, for anyone), the picker's
/// session API when its origin is an allowed app, and the links to what was picked for that app.
/// CORS headers go to allowed origins only, never with credentials.
struct CrossSite: Equatable {
    /// nil when the page did not say (no `Origin`, or `null`) or said it as no browser does: it
    /// can then use a link only.
    let origin: WebOrigin?

    init?(_ request: Request) {
        let origins = request.headers.values("Origin")
        if let origin = origins.first {
            guard origins.count > 1 || !Access.sameOrigin(origin, request) else { return nil }
            // Two origins are no browser's: a page that said nothing it can be held to.
            self.origin = origins.count == 1 ? try? WebOrigin(header: origin) : nil
            return
        }
        let site = request.headers["Sec-Fetch-Site"]
        guard site == "same-site" || site == "cross-site", request.headers["Sec-Fetch-Mode"] != "navigate" else { return nil }
        origin = nil
    }

    static let refusal = HTTPError(
        403, "cross_origin",
        "CameraRoll serves other sites only its picker, and only to the sites its owner allows (the settings page, or `cameraroll apps add`)."
    )

    static let chooserScript = "/app/chooser.js"

    static func isPickerAPI(_ path: String) -> Bool { path == "/api/picker/sessions" || path.hasPrefix("/api/picker/sessions/") }

    func admits(_ request: Request, _ route: Router.Route, _ access: Access) -> Bool {
        if route.pattern == "/app/:file" { return request.path == Self.chooserScript }
        if Self.isPickerAPI(route.pattern) {
            guard let origin else { return false }
            return access.apps.allows(origin)
        }
        guard route.pattern.hasPrefix("/media/:id/"), let id = request.query["app"], let app = access.apps.app(id: id),
            origin == nil || origin == app.origin
        else { return false }
        return access.capabilities.grants(
            request.query["cap"], assetID: request.parameters["id"] ?? "",
            kind: Access.mediaKind(request),
            edit: request.query["edit"], app: id)
    }

    /// The headers that let an allowed page read the answer: for the picker's API and for a link
    /// given to its app. Errors are readable too, so the site can show why.
    static func finish(_ request: Request, _ response: inout Response, _ access: Access) {
        if request.path == chooserScript {
            response.headers["Access-Control-Allow-Origin"] = "*"
            response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
            return
        }
        let isLink = request.path.hasPrefix("/media/") && request.query["app"] != nil
        guard isPickerAPI(request.path) || isLink else { return }
        response.headers.add("Vary", "Origin")
        let app = request.query["app"].flatMap { access.apps.app(id: $0) }
        if isLink, app != nil, response.status < 400 {
            response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
            // Asked again each time (a 304 when nothing changed), so that a link ends when it
            // expires or its app is removed, not when a browser's cache lets go of it.
            response.headers["Cache-Control"] = "private, no-cache"
        }
        guard let site = CrossSite(request), let origin = site.origin else { return }
        let allowed = isLink ? app?.origin == origin : access.apps.allows(origin)
        guard allowed else { return }
        response.headers["Access-Control-Allow-Origin"] = origin.description
        response.headers["Access-Control-Expose-Headers"] = isLink ? "Content-Range, Accept-Ranges, ETag" : "Location"
        if request.method == "OPTIONS" {
            response.headers["Access-Control-Allow-Methods"] = "GET, POST"
            response.headers["Access-Control-Allow-Headers"] = "Content-Type"
            response.headers["Access-Control-Max-Age"] = "600"
        }
    }
}
