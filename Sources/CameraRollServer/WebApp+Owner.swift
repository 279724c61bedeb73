import HTTPServer
import PhotoLibrary

extension WebApp {
    /// Whose library a request works in (`Access.owner`). The gate lets nobody else through to
    /// the routes that ask, so a nil here is a request the gate did not see.
    func owner(_ request: Request) throws(HTTPError) -> Owner {
        guard let owner = access.owner(request) else { throw HTTPError(401, "sign_in_required", "Sign in first.") }
        return owner
    }

    /// Whose asset a media URL may show: anyone's (nil) for the holder of a capability for that
    /// kind of media of it, else the asker's own.
    func mediaOwner(_ request: Request) throws(HTTPError) -> Owner? {
        access.holdsCapability(request, kind: Access.mediaKind(request)) ? nil : try owner(request)
    }
}
