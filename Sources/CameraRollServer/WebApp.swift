public import HTTPServer
public import PhotoLibrary

/// CameraRoll's web app: the JSON API, the media URLs and the pages, as routes over a library.
public struct WebApp: Sendable {
    public let library: Library
    let pickers = PickerSessions()

    public init(library: Library) {
        self.library = library
    }

    public var router: Router {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok"]) }
        addAPIRoutes(to: &router)
        addMediaRoutes(to: &router)
        addPickerRoutes(to: &router)
        addPageRoutes(to: &router)
        return router
    }
}
