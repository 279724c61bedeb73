public import Credentials
import Executors
import Foundation
public import HTTPServer
public import PhotoLibrary

/// CameraRoll's web app: the JSON API, the media URLs and the pages, as routes over a library.
public struct WebApp: Sendable {
    public let library: Library
    /// The server's own, or with `shared` the database's, which every server sharing it asks.
    let pickers: any PickerSessionStore
    let access: Access
    /// The local authority's certificate that phones install, when the server's certificate is
    /// CameraRoll's own; nil when there is none to give (plain HTTP, or the user's certificate).
    let authorityFile: String?
    /// Where a form's body is read through (a share of a few videos is gigabytes to look over).
    let forms = BlockingExecutor(name: "forms", threads: 1)

    /// Where phones download the local authority's certificate, without signing in: they need it
    /// before they can trust the page that signs in.
    public static let authorityPath = "/cameraroll-authority.pem"

    /// `names`: host names the server goes by besides its addresses, `localhost` and the
    /// computer's own name (a DNS name, a reverse proxy's); requests to other names are refused.
    /// Throws when the data folder's key for capability URLs can be neither read nor made.
    /// `capabilityKey` signs the links to picked items: by default the data folder's own, and the
    /// database's when several servers share one (`CapabilityKey.shared`), so a link one server
    /// gave out opens on every other.
    /// `shared`: when servers share the library, what they keep together to sign people in;
    /// then everyone signs in, loopback too.
    public init(
        library: Library, authorityFile: String? = nil, names: [String] = [], capabilityKey: CapabilityKey? = nil,
        shared: SharedCredentials? = nil
    ) throws {
        self.library = library
        self.authorityFile = authorityFile
        pickers = StoredPickerSessions(database: library.database)
        access = try Access(
            dataFolder: URL(fileURLWithPath: library.folder.root), names: names, capabilityKey: capabilityKey,
            shared: shared)
    }

    /// The addresses of clients signed in lately, for `Configuration.trustedClients`: the server
    /// keeps connections free for them when others open many.
    public var trustedClients: TrustedClients { access.trustedClients }

    /// Whether an address is this computer's own (loopback): who asks from it needs no sign-in.
    public static func isLoopback(_ address: String) -> Bool { Access.isLocal(address) }

    public var router: Router {
        var router = Router()
        // Routes are tried in order, and a grid's thumbnails are most of all requests.
        addMediaRoutes(to: &router)
        router.get("/healthz") { _ in .json(["status": "ok"]) }
        addAPIRoutes(to: &router)
        addPhotosRoutes(to: &router)
        addUploadRoutes(to: &router)
        addPickerRoutes(to: &router)
        addPageRoutes(to: &router)
        addSessionRoutes(to: &router)
        addPasskeyRoutes(to: &router)
        addShareTargetRoutes(to: &router)
        addAppRoutes(to: &router)
        addPeopleRoutes(to: &router)
        addQuotaRoutes(to: &router)
        addBackgroundRoutes(to: &router)
        addSharedAlbumRoutes(to: &router)
        addPartnerRoutes(to: &router)
        addDownloadRoutes(to: &router)
        addShareLinkRoutes(to: &router)
        addGuestRoutes(to: &router)
        router.gate = { [access] request, route in access.gate(request, route) }
        router.finish = { [access] request, response in CrossSite.finish(request, &response, access) }
        return router
    }
}
