public import Foundation
public import ImagePicker

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Presents a picker from a Swift program through a running CameraRoll server, in the manner of
/// `UIImagePickerController`: configure it, present it (the user opens its page in a browser),
/// then await the book's info, or nil when the user cancels.
///
/// ```swift
/// let picker = ImagePickerController(server: URL(string: "http://127.0.0.1:8080")!)
/// picker.configuration.sourceType = .photoLibrary
/// let page = try await picker.present()      // show or open page.url
/// if let info = try await picker.result() { ... info.originalImage ... }
/// ```
public final class ImagePickerController {
    /// What `present()` gives: the session and the page the user picks in.
    public struct Presentation: Sendable {
        public let sessionID: String
        public let pageURL: URL
    }

    public let server: URL
    /// Set before `present()`; the book's properties.
    public var configuration = PickerConfiguration()
    public weak var delegate: (any ImagePickerControllerDelegate)?
    private var presentation: Presentation?
    private let session: URLSession
    /// The session cookie and CSRF token of the person `signIn` signed in as.
    private var signedIn: (cookie: String, csrfToken: String)?

    public init(server: URL, session: URLSession = .shared) {
        self.server = server
        self.session = session
    }

    /// Signs in as a person (`user` nil: the owner, by the password alone), as a device other
    /// than the server's computer must before presenting: the picker is then theirs from the
    /// start, showing their library, and only a browser signed in as them picks in it.
    public func signIn(user: String?, password: String) async throws {
        var fields = ["password": password]
        fields["user"] = user
        let (data, response) = try await exchange("POST", "/api/session", body: try JSONEncoder().encode(fields))
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard let cookie = response.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init),
            let csrfToken = object?["csrfToken"] as? String
        else { throw PickerError(.serverError, "The server signed nobody in.") }
        signedIn = (cookie, csrfToken)
    }

    /// Creates the picker session on the server.
    public func present() async throws -> Presentation {
        try configuration.validate()
        let created = try await call("POST", "/api/picker/sessions", body: try JSONEncoder().encode(configuration))
        guard let id = created["id"] as? String, let path = created["url"] as? String, let url = URL(string: path, relativeTo: server)
        else {
            throw PickerError(.serverError, "The server did not create a picker session.")
        }
        let presentation = Presentation(sessionID: id, pageURL: url.absoluteURL)
        self.presentation = presentation
        return presentation
    }

    /// Waits for the user: the info (its URLs made absolute) when they finish, nil when they
    /// cancel. For a multiple selection, the first item's (see `results()`).
    public func result() async throws -> PickerInfo? {
        try await results()?.first
    }

    /// Waits for the user: one info per item picked, in the user's order (PHPicker's results;
    /// one item for the book's picker), nil when they cancel. The delegate, if any, hears the same.
    public func results() async throws -> [PickerInfo]? {
        guard let presentation else { throw PickerError(.notPresented, "Call present() first.") }
        while true {
            let data = try await raw("GET", "/api/picker/sessions/\(presentation.sessionID)?wait=30")
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            switch object["status"] as? String {
            case "finished":
                struct Finished: Decodable { var results: [PickerInfo] }
                let results = try JSONDecoder().decode(Finished.self, from: data).results.map { info in
                    var info = info
                    info.originalImage = info.originalImage.map(absolute)
                    info.editedImage = info.editedImage.map(absolute)
                    info.mediaURL = info.mediaURL.map(absolute)
                    info.livePhoto = info.livePhoto.map { LivePhotoURLs(imageURL: absolute($0.imageURL), movieURL: absolute($0.movieURL)) }
                    return info
                }
                guard let first = results.first else { throw PickerError(.serverError, "The server finished a pick of nothing.") }
                delegate?.imagePickerController(self, didFinishPickingMediaWithInfo: first)
                delegate?.imagePickerController(self, didFinishPicking: results)
                return results
            case "cancelled":
                delegate?.imagePickerControllerDidCancel(self)
                return nil
            default:
                continue
            }
        }
    }

    /// A link of the info as the server's path, made absolute against the server.
    private func absolute(_ path: String) -> String {
        URL(string: path, relativeTo: server)?.absoluteString ?? path
    }

    private func call(_ method: String, _ path: String, body: Data? = nil) async throws -> [String: Any] {
        let data = try await raw(method, path, body: body)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    private func raw(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        try await exchange(method, path, body: body).data
    }

    /// A request, as the person signed in when there is one (the cookie is sent by hand: a
    /// `Secure` cookie is the server's to judge, on loopback too).
    private func exchange(_ method: String, _ path: String, body: Data? = nil) async throws -> (data: Data, response: HTTPURLResponse) {
        guard let url = URL(string: path, relativeTo: server) else { throw PickerError(.badURL, "The server URL is not usable.") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 120
        request.httpShouldHandleCookies = false
        if let signedIn {
            request.setValue(signedIn.cookie, forHTTPHeaderField: "Cookie")
            request.setValue(signedIn.csrfToken, forHTTPHeaderField: "X-CSRF-Token")
        }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw PickerError(
                .serverUnreachable, "The server at \(server.absoluteString) does not answer; start it with 'cameraroll serve'.")
        }
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            throw PickerError(
                (object?["code"] as? String).map(PickerError.Code.init(answered:)) ?? .serverError,
                object?["message"] as? String ?? "The server refused the request.")
        }
        return (data, http)
    }
}

/// The book's delegate, for programs that prefer callbacks to `await`.
public protocol ImagePickerControllerDelegate: AnyObject {
    func imagePickerController(_ picker: ImagePickerController, didFinishPickingMediaWithInfo info: PickerInfo)
    /// Every item of the pick, in the user's order (PHPicker's didFinishPicking).
    func imagePickerController(_ picker: ImagePickerController, didFinishPicking results: [PickerInfo])
    func imagePickerControllerDidCancel(_ picker: ImagePickerController)
}

extension ImagePickerControllerDelegate {
    /// The book's delegate hears the first item only.
    public func imagePickerController(_ picker: ImagePickerController, didFinishPicking results: [PickerInfo]) {}
}
