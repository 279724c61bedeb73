import Foundation
import HTTPServer
import PhotoLibrary

extension WebApp {
    /// A selection downloaded as one ZIP archive of its originals: POST keeps the selection (in
    /// the database, for an hour, so that any server of the library sends it), GET streams the
    /// archive, made while it is sent, under a length known from the start.
    func addDownloadRoutes(to router: inout Router) {
        // 10,000 ids of 32 digits, quoted, with commas, fit in half of this.
        router.post("/api/downloads", body: .file(maxBytes: 1 << 20)) { request in
            let (selection, owner) = (try Self.decode(DownloadSelection.self, request.body), try owner(request))
            let download = try await answering { () throws(LibraryError) in
                try await library.downloads.createDownload(of: selection.ids, owner: owner)
            }
            var response = Response.json(DownloadJSON(download), status: 201)
            response.headers["Location"] = DownloadJSON.path(download)
            return response
        }
        router.get("/api/downloads/:token") { request in
            let owner = try owner(request)
            let download = try await answering { () throws(LibraryError) in
                try await library.downloads.download(request.parameter("token"), owner: owner)
            }
            return archive(download)
        }
    }

    /// A download's archive, streamed as it is made, under the length known from the start.
    func archive(_ download: Download) -> Response {
        Response(
            headers: Headers([
                ("Content-Type", "application/zip"),
                ("Content-Disposition", ContentDisposition.attachment(download.filename)),
                ("Cache-Control", "no-store"),
            ]),
            body: .stream(
                StreamedBody(size: download.size) { [library] writer in try await library.downloads.write(download, to: writer.write) })
        )
    }
}

/// What `POST /api/downloads` takes: the assets' ids, in the archive's order.
struct DownloadSelection: Decodable {
    var ids: [String]
}

/// A download as `POST /api/downloads` answers it.
struct DownloadJSON: Encodable {
    var url: String
    var filename: String
    /// The archive's exact size in bytes.
    var size: Int
    /// The items selected (a Live Photo is one).
    var count: Int
    /// The files in the archive (a Live Photo's still and movie are two).
    var files: Int

    init(_ download: Download) {
        url = Self.path(download)
        filename = download.filename
        size = download.size
        count = download.count
        files = download.fileCount
    }

    static func path(_ download: Download) -> String { "/api/downloads/\(download.token)" }
}
