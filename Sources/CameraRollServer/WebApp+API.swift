import Foundation
import HTTPServer
import Imaging
import PhotoLibrary
import Vocabulary

extension WebApp {
    func addAPIRoutes(to router: inout Router) {
        router.get("/api/capabilities") { _ in .json(capabilities) }
        router.get("/api/assets") { request in try await listAssets(request) }
        router.get("/api/assets/:id") { request in
            let owner = try owner(request)
            return try await answering { () throws(LibraryError) in
                .json(AssetJSON(try await library.catalog.visibleAsset(request.parameter("id"), to: owner)))
            }
        }
        router.post("/api/assets", body: .file(maxBytes: library.options.maxFileBytes, sha256: true)) { request in try await upload(request)
        }
        router.post("/api/assets/:id/albums/:album") { request in
            guard request.parameter("album") == Library.cameraRollID else {
                throw HTTPError.notFound("There is no album with that id; the Camera Roll is \"\(Library.cameraRollID)\".")
            }
            let owner = try owner(request)
            return try await answering { () throws(LibraryError) in
                .json(AssetJSON(try await library.catalog.saveToCameraRoll(request.parameter("id"), owner: owner)))
            }
        }
        router.put("/api/assets/:id/edit", body: .file(maxBytes: 64 * 1024)) { request in
            let edit = try EditRequest.parse(request.body)
            let owner = try owner(request)
            return try await answering { () throws(LibraryError) in
                .json(AssetJSON(try await library.catalog.setEdit(edit, for: request.parameter("id"), owner: owner)))
            }
        }
        router.delete("/api/assets/:id") { request in
            let owner = try owner(request)
            return try await answering { () throws(LibraryError) in
                .json(AssetJSON(try await library.catalog.trash(request.parameter("id"), owner: owner)))
            }
        }
        router.get("/api/assets/:id/rendition") { request in
            let (id, owner) = (request.parameter("id"), try owner(request))
            let rendition = try await answering { () throws(LibraryError) in
                try await library.mediaJobs.renditionStatus(of: id, owner: owner)
            }
            return .json(RenditionJSON(rendition, id: id))
        }
        // Only a person asks for this (the pages' Try again): it forgets a failure, which
        // polling never does.
        router.post("/api/assets/:id/rendition") { request in
            let (id, owner) = (request.parameter("id"), try owner(request))
            let rendition = try await answering { () throws(LibraryError) in
                try await library.mediaJobs.retryRendition(of: id, owner: owner)
            }
            return rendition == .ready ? .json(RenditionJSON(rendition, id: id)) : try Self.unfinished(rendition, id: id)
        }
    }

    private var capabilities: Capabilities {
        Capabilities(
            sources: [
                "photoLibrary": .init(mediaTypes: MediaType.allCases.map(\.rawValue)),
                "savedPhotosAlbum": .init(mediaTypes: MediaType.allCases.map(\.rawValue)),
            ],
            limits: .init(
                maxUploadBytes: library.options.maxFileBytes, maxPixels: library.options.maxPixels,
                maxDisplaySide: Library.maxDisplaySide, maxPageSize: AssetQuery.maxLimit),
            imageFormats: ImageFormat.allCases.map(\.mimeType),
            videoFormats: ["video/mp4", "video/quicktime", "video/webm", "video/x-matroska", "video/x-msvideo"],
            thumbnailSizes: Library.thumbnailSizes)
    }

    private func listAssets(_ request: Request) async throws -> Response {
        let (query, owner, partner) = (try AssetQuery(request), try owner(request), try partner(request))
        let page = try await answering { () throws(LibraryError) in
            if let partner { return try await library.catalog.partnerAssets(query, of: partner, for: owner) }
            return try await library.catalog.assets(query, owner: owner)
        }
        return .json(
            AssetsPage(
                assets: page.assets.map(AssetJSON.init), nextCursor: page.nextCursor, previousCursor: page.previousCursor, days: page.days))
    }

    private func upload(_ request: Request) async throws -> Response {
        // The same answer as an empty file imported from disk: the body is the file.
        guard let body = request.body, body.size > 0 else {
            throw HTTPError(422, "empty", "The file is empty; send its bytes as the request body.")
        }
        let source: AssetSource
        switch request.query["source"] ?? "upload" {
        case "upload": source = .upload
        case "camera": source = .camera
        default: throw HTTPError.badRequest("invalid_parameter", "source: camera or upload.")
        }
        let album = request.query["album"]
        guard album == nil || album == Library.cameraRollID else {
            throw HTTPError.badRequest("invalid_parameter", "album: only \(Library.cameraRollID) can be named.")
        }
        let name = request.headers["X-Filename"].map { $0.removingPercentEncoding ?? $0 }
        let owner = try owner(request)
        try await requireRoom(for: body.size, owner: owner)
        let result = try await answering { () throws(LibraryError) in
            try await library.ingest.importUpload(
                temporaryFile: body.path, sha256: body.sha256, originalFilename: name, source: source, saveToCameraRoll: album != nil,
                owner: owner)
        }
        var response = Response.json(AssetJSON(result.asset), status: result.isDuplicate ? 200 : 201)
        response.headers["Location"] = "/api/assets/\(result.asset.id)"
        return response
    }
}

struct Capabilities: Encodable {
    struct Source: Encodable { var mediaTypes: [String] }
    struct Limits: Encodable {
        var maxUploadBytes: Int
        var maxPixels: Int
        var maxDisplaySide: Int
        var maxPageSize: Int
    }
    var sources: [String: Source]
    var limits: Limits
    var imageFormats: [String]
    var videoFormats: [String]
    var thumbnailSizes: [Int]
}

struct AssetsPage: Encodable {
    var assets: [AssetJSON]
    var nextCursor: String?
    var previousCursor: String?
    var days: [DayCount]
}
