import Foundation
import HTTPServer
import PhotoLibrary

/// Resumable uploads over tus 1.0 (core, creation, creation-with-upload, creation-defer-length,
/// termination, expiration, checksum with sha1 and sha256) at `/api/uploads`, so that
/// tus-js-client, Uppy and tuspy work unchanged. Metadata: `filename`, `source` (`upload` or
/// `camera`) and `album` (`cameraRoll`, to save the file to the Camera Roll). The piece that
/// completes an upload answers with `X-Asset-ID`; `GET` on the upload (JSON) tells its asset or
/// its refusal for as long as the upload is kept.
extension WebApp {
    func addUploadRoutes(to router: inout Router) {
        let maxBytes = library.options.maxFileBytes
        router.add("OPTIONS", "/api/uploads") { _ in
            var response = Response(status: 204)
            response.headers["Tus-Version"] = TusHeaders.version
            response.headers["Tus-Extension"] = TusHeaders.extensions
            response.headers["Tus-Max-Size"] = String(maxBytes)
            response.headers["Tus-Checksum-Algorithm"] = TusHeaders.checksumAlgorithms.keys.sorted().joined(separator: ",")
            return response
        }
        router.add(
            "POST", "/api/uploads", body: .file(maxBytes: maxBytes), check: { refusalOfDeclaredSizes($0) },
            handler: { request in try await tus(request) { try await createUpload(request) } })
        router.get("/api/uploads/:id") { request in try await tus(request) { try await uploadStatus(request) } }
        router.add(
            "PATCH", "/api/uploads/:id", body: .file(maxBytes: maxBytes), check: { refusalOfDeclaredSizes($0) },
            handler: { request in try await tus(request) { try await appendPiece(request) } },
            salvage: { await keepCutPiece($0) })
        router.delete("/api/uploads/:id") { request in
            try await tus(request) {
                let (id, owner) = (try uploadID(request), try owner(request))
                try await answering { () async throws(LibraryError) in try await library.uploads.terminateUpload(id, owner: owner) }
                return Response(status: 204)
            }
        }
    }

    /// Every tus answer names the protocol's version, refusals too; a client that speaks another
    /// version gets 412 with the one we speak.
    private func tus(_ request: Request, _ handler: () async throws -> Response) async throws -> Response {
        var response: Response
        if !speaksOurVersion(request) {
            response = HTTPError(412, "unsupported_version", "This server speaks tus \(TusHeaders.version).").response
            response.headers["Tus-Version"] = TusHeaders.version
        } else {
            do {
                response = try await handler()
            } catch let error as any HTTPResponseError {
                response = error.response
            }
        }
        response.headers["Tus-Resumable"] = TusHeaders.version
        return response
    }

    /// A piece whose headers show it too large is refused before a byte of it is stored, rather
    /// than once it is all on disk: a declared `Upload-Length` past the size limit, or a body
    /// (`Content-Length`) that would take the upload past that length, or from its
    /// `Upload-Offset` past the limit. A chunked body declares no size and is checked as it comes;
    /// headers that do not read are left to the handler, which says what is wrong with them.
    private func refusalOfDeclaredSizes(_ request: Request) -> Response? {
        guard speaksOurVersion(request) else { return nil }
        let declared = { (name: String) in (try? TusHeaders.field(request, name))?.flatMap { try? TusHeaders.count($0, name) } }
        guard let offset = request.method == "POST" ? 0 : declared("Upload-Offset") else { return nil }
        do throws(LibraryError) {
            try library.uploads.checkFits(pieceAt: offset, size: declared("Content-Length") ?? 0, length: declared("Upload-Length"))
            return nil
        } catch {
            guard var response = ClientError(error)?.response else { return nil }
            response.headers["Tus-Resumable"] = TusHeaders.version
            return response
        }
    }

    private func createUpload(_ request: Request) async throws -> Response {
        // A recording streamed while it is shot tells its length with its last piece.
        let deferred = try TusHeaders.field(request, "Upload-Defer-Length")
        let declaredLength = try TusHeaders.field(request, "Upload-Length")
        guard deferred == nil || deferred == "1" else {
            throw HTTPError.badRequest("invalid_header", "Upload-Defer-Length can only be 1.")
        }
        guard (deferred == nil) != (declaredLength == nil) else {
            throw HTTPError.badRequest("invalid_header", "Send Upload-Length, or Upload-Defer-Length: 1 to tell it later.")
        }
        let length = deferred == nil ? try TusHeaders.count(declaredLength, "Upload-Length") : nil
        let metadata = try TusHeaders.metadata(try TusHeaders.field(request, "Upload-Metadata"))
        let source: AssetSource
        switch try TusHeaders.text(metadata, "source") ?? "upload" {
        case "upload": source = .upload
        case "camera": source = .camera
        default: throw HTTPError.badRequest("invalid_metadata", "source: camera or upload.")
        }
        let album = try TusHeaders.text(metadata, "album")
        guard album == nil || album == Library.cameraRollID else {
            throw HTTPError.badRequest("invalid_metadata", "album: only \(Library.cameraRollID) can be named.")
        }
        let new = NewUpload(
            length: length, originalFilename: try TusHeaders.text(metadata, "filename"), source: source,
            saveToCameraRoll: album != nil, client: request.remoteAddress, owner: try owner(request))
        let piece = try piece(of: request)
        try await requireRoom(for: length ?? request.body?.size ?? 0, owner: new.owner)
        var upload = try await answering { () async throws(LibraryError) in try await library.uploads.createUpload(new) }
        if let piece {
            upload = try await answering { () async throws(LibraryError) in
                try await library.uploads.appendToUpload(upload.id, at: 0, piece: piece, owner: new.owner)
            }
        }
        var response = Response(status: 201)
        response.headers["Location"] = "/api/uploads/\(upload.id)"
        describe(upload, in: &response)
        return response
    }

    /// HEAD is tus' question of where an upload is; GET adds its state as JSON.
    private func uploadStatus(_ request: Request) async throws -> Response {
        let (id, owner) = (try uploadID(request), try owner(request))
        let upload = try await answering { () async throws(LibraryError) in try await library.uploads.upload(id, owner: owner) }
        var response = Response.json(UploadJSON(upload))
        if let length = upload.length {
            response.headers["Upload-Length"] = String(length)
        } else {
            response.headers["Upload-Defer-Length"] = "1"
        }
        describe(upload, in: &response)
        return response
    }

    private func appendPiece(_ request: Request) async throws -> Response {
        let (piece, owner) = (try pieceRequest(request), try owner(request))
        // What the upload will be at least once this piece is in; its declared length was
        // checked when it was made.
        try await requireRoom(for: piece.length ?? piece.offset + (request.body?.size ?? 0), owner: owner)
        let upload = try await answering { () async throws(LibraryError) in
            try await library.uploads.appendToUpload(piece.id, at: piece.offset, piece: piece.file, length: piece.length, owner: owner)
        }
        var response = Response(status: 204)
        describe(upload, in: &response)
        return response
    }

    /// A piece whose connection was cut keeps the bytes that came, as tusd does, so that the
    /// client's next HEAD finds them: a phone on a bad network would otherwise send a large
    /// piece again and again. Not a piece sent with a checksum, which its part cannot match.
    private func keepCutPiece(_ request: Request) async {
        guard request.headers["Upload-Checksum"] == nil, speaksOurVersion(request), let piece = try? pieceRequest(request),
            let owner = access.owner(request)
        else { return }
        _ = try? await library.uploads.appendToUpload(piece.id, at: piece.offset, piece: piece.file, length: piece.length, owner: owner)
    }

    /// What a PATCH says of its piece: the upload, where the piece goes, its bytes, and the
    /// upload's length when this piece tells it.
    private struct PieceRequest {
        var id: String
        var offset: Int
        var file: UploadPieceFile
        var length: Int?
    }

    private func pieceRequest(_ request: Request) throws -> PieceRequest {
        let id = try uploadID(request)
        let offset = try TusHeaders.count(try TusHeaders.field(request, "Upload-Offset"), "Upload-Offset")
        guard let file = try piece(of: request) else {
            throw HTTPError(415, "unsupported_type", "A piece of an upload is sent as \(TusHeaders.pieceType).")
        }
        let length = try TusHeaders.field(request, "Upload-Length").map { (text) throws(HTTPError) in
            try TusHeaders.count(text, "Upload-Length")
        }
        return PieceRequest(id: id, offset: offset, file: file, length: length)
    }

    /// A request without `Tus-Resumable` is taken as ours (browsers' own requests, curl); one
    /// that sends it twice is not.
    private func speaksOurVersion(_ request: Request) -> Bool {
        let versions = request.headers.values("Tus-Resumable")
        return versions.count <= 1 && versions.allSatisfy { $0 == TusHeaders.version }
    }

    /// The piece a request brings for an upload, nil when it is not sent as tus' content type
    /// (a creation that brings no bytes). Bytes sent as anything else are refused.
    private func piece(of request: Request) throws -> UploadPieceFile? {
        let type = request.headers["Content-Type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == TusHeaders.pieceType else {
            if (request.body?.size ?? 0) > 0 {
                throw HTTPError(415, "unsupported_type", "A piece of an upload is sent as \(TusHeaders.pieceType).")
            }
            return nil
        }
        let checksum = try TusHeaders.checksum(try TusHeaders.field(request, "Upload-Checksum"))
        return UploadPieceFile(path: try request.body?.path ?? emptyPiece(), checksum: checksum)
    }

    /// A PATCH with no body (a client asking for the offset's check alone) as an empty piece.
    private func emptyPiece() throws -> String {
        let path = "\(library.temporaryFolder)/\(UUID().uuidString.lowercased()).empty"
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw HTTPError(500, "io", "A file could not be written.")
        }
        return path
    }

    private func uploadID(_ request: Request) throws(HTTPError) -> String {
        let id = request.parameters["id"] ?? ""
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ isalnum(Int32($0)) != 0 }) else {
            throw HTTPError(404, "not_found", "There is no such upload; it may have expired or been cancelled.")
        }
        return id
    }

    private func describe(_ upload: Upload, in response: inout Response) {
        response.headers["Upload-Offset"] = String(upload.offset)
        response.headers["Upload-Expires"] = TusHeaders.httpDate(upload.expires)
        response.headers["Cache-Control"] = "no-store"
        if case .done(let asset, let duplicate) = upload.state {
            response.headers["X-Asset-ID"] = asset
            if duplicate { response.headers["X-Asset-Duplicate"] = "true" }
        }
    }
}

/// An upload as `GET /api/uploads/<id>` tells it.
struct UploadJSON: Encodable {
    struct Refusal: Encodable {
        var code: String
        var message: String
    }
    var id: String
    /// nil until the client tells it.
    var length: Int?
    var offset: Int
    /// `receiving`, `importing`, `done` or `refused`.
    var state: String
    var expires: String
    var filename: String?
    var assetID: String?
    var duplicate: Bool?
    var error: Refusal?

    init(_ upload: Upload) {
        id = upload.id
        length = upload.length
        offset = upload.offset
        expires = upload.expires.formatted(Date.ISO8601FormatStyle())
        filename = upload.originalFilename
        switch upload.state {
        case .receiving: state = "receiving"
        case .importing: state = "importing"
        case .done(let asset, let isDuplicate):
            state = "done"
            assetID = asset
            duplicate = isDuplicate
        case .refused(let refusal):
            state = "refused"
            error = Refusal(code: refusal.code.description, message: refusal.message)
        }
    }
}
