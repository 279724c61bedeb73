import Credentials
import Foundation
public import HTTPServer
public import PhotoLibrary

/// CameraRoll's web app: the JSON API, the media URLs and the pages, as routes over a library.
public struct WebApp: Sendable {
    public let library: Library
    let pickers = PickerSessions()
    let access: Access

    public init(library: Library) {
        self.library = library
        access = Access(owner: OwnerAccount(dataFolder: URL(fileURLWithPath: library.folder.root)))
    }

    /// Whether an address is this computer's own (loopback): who asks from it needs no sign-in.
    public static func isLoopback(_ address: String) -> Bool { Access.isLocal(address) }

    public var router: Router {
        var router = Router()
        router.get("/healthz") { _ in .json(["status": "ok"]) }
        addAPIRoutes(to: &router)
        addMediaRoutes(to: &router)
        addPickerRoutes(to: &router)
        addPageRoutes(to: &router)
        addSessionRoutes(to: &router)
        router.gate = { [access] request, route in access.gate(request, route) }
        return router
    }
}
