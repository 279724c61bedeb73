import ChildProcess
import Foundation
import ImagePicker
import PickerClient
import Vocabulary

/// `cameraroll pick [--server URL] [--user NAME] [--source camera|library|saved] [--media image,movie,live-photo]
/// [--edit] [--limit N [--ordered]] [--filter JSON]`: presents a picker through a running server, prints the page
/// to open, waits, and prints the result info as JSON with absolute URLs (with `--limit` above 1,
/// the array of results in the user's order). Exit status 1 when the user cancels. With `--user`
/// it signs in as that person first (the password as `passwd` reads it): the picker is theirs.
enum PickCommand {
    static let valued: Set<String> = ["server", "user", "source", "media", "limit", "filter"]

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly(["server", "user", "source", "media", "edit", "no-open", "limit", "ordered", "filter"])
        guard arguments.positional.isEmpty else { throw UsageError("pick takes no file names.") }
        var configuration = PickerConfiguration()
        switch arguments.value("source") ?? "library" {
        case "camera": configuration.sourceType = .camera
        case "library", "photoLibrary": configuration.sourceType = .photoLibrary
        case "saved", "savedPhotosAlbum": configuration.sourceType = .savedPhotosAlbum
        default: throw UsageError("--source is camera, library or saved.")
        }
        (configuration.mediaTypes, configuration.livePhotos) = try mediaTypes(arguments.value("media") ?? "image")
        configuration.allowsEditing = arguments.flag("edit")
        if let limit = arguments.value("limit") {
            guard let count = Int(limit) else { throw UsageError("--limit takes how many items may be picked.") }
            configuration.selectionLimit = count
        }
        if arguments.flag("ordered") { configuration.selection = .ordered }
        if let filter = arguments.value("filter") {
            guard let parsed = try? JSONDecoder().decode(PickerFilter.self, from: Data(filter.utf8)) else {
                throw UsageError(#"--filter takes PHPickerFilter as JSON: "screenshots", {"any": ["livePhotos", "videos"]}, {"not": …}."#)
            }
            configuration.filter = parsed
        }
        if configuration.sourceType == .camera && !configuration.mediaTypes.contains(.image) { configuration.cameraCaptureMode = .video }
        do {
            try configuration.validate()
        } catch {
            throw UsageError(error.message)
        }
        guard let server = URL(string: arguments.value("server") ?? "http://127.0.0.1:8080") else {
            throw UsageError("--server takes a URL such as http://127.0.0.1:8080.")
        }

        let picker = ImagePickerController(server: server)
        picker.configuration = configuration
        if let user = arguments.value("user") {
            guard let password = PasswordCommand.ask("\(user)'s password: ") else {
                throw UsageError("pick --user NAME reads NAME's password from standard input.")
            }
            try await picker.signIn(user: user, password: password)
        }
        let presentation = try await picker.present()
        Terminal.out("Open \(presentation.pageURL.absoluteString) to pick.")
        if !arguments.flag("no-open") { openBrowser(presentation.pageURL.absoluteString) }
        guard let results = try await picker.results(), let first = results.first else {
            Terminal.error("Cancelled.")
            return 1
        }
        if configuration.selectionLimit > 1 { Terminal.json(results) } else { Terminal.json(first) }
        return 0
    }

    /// The media types `--media` names, and whether it names Live Photos (UIKit's
    /// `com.apple.live-photo`, which goes with image: a Live Photo is then picked as both files).
    private static func mediaTypes(_ text: String) throws(UsageError) -> ([MediaType], livePhotos: Bool) {
        var types: [MediaType] = []
        var livePhotos = false
        for word in text.split(separator: ",").map(String.init) {
            switch word {
            case "image", "photo", "public.image": types.append(.image)
            case "movie", "video", "public.movie": types.append(.movie)
            case "live-photo", PickerConfiguration.livePhotoType: livePhotos = true
            default: throw UsageError("--media takes image, movie and live-photo, separated by commas.")
            }
        }
        return (types, livePhotos)
    }

    /// Opens the page where a browser can be started; a headless machine just prints it.
    private static func openBrowser(_ url: String) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open")
        else { return }
        // Its end is not waited for: the browser it starts may outlive the pick.
        _ = try? SpawnedProcess(
            executable: "/usr/bin/xdg-open", arguments: [url], environment: environment, standardOutput: .null, standardError: .null)
    }
}
