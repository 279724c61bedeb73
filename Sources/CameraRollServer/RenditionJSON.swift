import HTTPServer
import PhotoLibrary

/// Where a movie's playable rendition stands: `status` is `ready`, `pending`, `notStarted` or
/// `failed`; a failure has the error's stable `code` and a `message` for people.
struct RenditionJSON: Encodable {
    var status: String
    var progress: Double
    var video: String
    var stream: String?
    var code: String?
    var message: String?

    init(_ rendition: RenditionStatus, id: String) {
        video = "/media/\(id)/video"
        if rendition != .ready { stream = "/media/\(id)/stream" }
        switch rendition {
        case .ready: (status, progress) = ("ready", 1)
        case .making(let fraction): (status, progress) = ("pending", fraction)
        case .notStarted: (status, progress) = ("notStarted", 0)
        case .failed(let error): (status, progress, code, message) = ("failed", 0, error.code.description, error.message)
        }
    }
}

extension WebApp {
    /// The answer for a rendition that is not ready to serve: 202 while it is made (poll the
    /// Location), or its failure, with the failure's own status. A failure that is the server's
    /// own (ffmpeg missing, the disk) is thrown, to be a 500 like any other.
    static func unfinished(_ rendition: RenditionStatus, id: String) throws(LibraryError) -> Response {
        if case .failed(let error) = rendition {
            guard let client = ClientError(error) else { throw error }
            return .json(RenditionJSON(rendition, id: id), status: client.status)
        }
        var response = Response.json(RenditionJSON(rendition, id: id), status: 202)
        response.headers["Location"] = "/api/assets/\(id)/rendition"
        response.headers["Retry-After"] = "1"
        return response
    }
}
