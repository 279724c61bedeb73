import Foundation
import PhotoLibrary
import Vocabulary

/// `cameraroll list [--json] [--source photoLibrary|savedPhotosAlbum] [--media image,movie] [--user NAME]`:
/// NAME's library (by default the owner's).
enum ListCommand {
    static let valued: Set<String> = ["source", "media", "user"]

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly(["json", "source", "media", "user"])
        let owner = try await context.owner(named: arguments.value("user"))
        guard arguments.positional.isEmpty else { throw UsageError("list takes no file names.") }
        let source = try LibrarySource.parse(arguments.value("source") ?? "photoLibrary")
        let mediaTypes = try MediaType.parseList(arguments.value("media") ?? "image,movie")
        let library = try await context.openLibrary()

        var assets: [Asset] = []
        var cursor: String?
        repeat {
            let page = try await library.catalog.assets(
                AssetQuery(source: source, mediaTypes: mediaTypes, limit: AssetQuery.maxLimit, cursor: cursor), owner: owner)
            assets += page.assets
            cursor = page.nextCursor
        } while cursor != nil

        if arguments.flag("json") {
            Terminal.json(assets)
            return 0
        }
        var table = [["ID", "TYPE", "SIZE", "LENGTH", "CAPTURED", "SOURCE", "NAME"]]
        for asset in assets {
            table.append([
                asset.id, asset.mediaType == .image ? "photo" : "video", "\(asset.width)x\(asset.height)",
                asset.duration.map { String(format: "%.1fs", $0) } ?? "", asset.captureDate.map { String($0.prefix(19)) } ?? "",
                asset.source.rawValue + (asset.inCameraRoll ? " ★" : ""), asset.originalFilename ?? "",
            ])
        }
        Terminal.table(table)
        Terminal.out("\(assets.count) item\(assets.count == 1 ? "" : "s") (★ = in the Camera Roll)")
        return 0
    }
}

extension LibrarySource {
    static func parse(_ text: String) throws(UsageError) -> LibrarySource {
        switch text {
        case "photoLibrary", "library", "all": return .photoLibrary
        case "savedPhotosAlbum", "saved", "cameraRoll": return .savedPhotosAlbum
        default: throw UsageError("--source is photoLibrary or savedPhotosAlbum.")
        }
    }
}

extension MediaType {
    static func parseList(_ text: String) throws(UsageError) -> Set<MediaType> {
        var types: Set<MediaType> = []
        for word in text.split(separator: ",") {
            switch word.trimmingCharacters(in: .whitespaces) {
            case "image", "photo", "public.image": types.insert(.image)
            case "movie", "video", "public.movie": types.insert(.movie)
            default: throw UsageError("--media takes image and movie, separated by commas.")
            }
        }
        guard !types.isEmpty else { throw UsageError("--media needs at least one media type.") }
        return types
    }
}
