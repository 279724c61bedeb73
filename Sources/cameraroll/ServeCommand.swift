import CameraRollServer
import Credentials
import Foundation
import HTTPServer
import PhotoLibrary

/// `cameraroll serve [--host ADDRESS] [--port N]`: the web app, until SIGINT or SIGTERM, which
/// stop it gracefully (no new connections, requests in flight finish, the database is flushed).
enum ServeCommand {
    static func run(_ words: [String], _ context: Context) async throws -> Int32 {
        let arguments = try Arguments(words, valued: ["host", "port"])
        try arguments.allowOnly(["host", "port"])
        guard arguments.positional.isEmpty else { throw UsageError("serve takes no file names.") }
        let host = arguments.value("host") ?? "127.0.0.1"
        guard let port = Int(arguments.value("port") ?? "8080"), (0...65535).contains(port) else {
            throw UsageError("--port takes a number from 0 to 65535.")
        }
        let library = try context.openLibrary()
        // Everyone but this computer signs in with the owner's password, so serving beyond it
        // without one would lock everybody out.
        if !WebApp.isLoopback(host) && !OwnerAccount(dataFolder: URL(fileURLWithPath: library.folder.root)).hasPassword {
            throw UsageError("Set the owner's password first (cameraroll passwd): every device but this one signs in with it.")
        }
        var configuration = Configuration(bodyDirectory: library.temporaryFolder)
        configuration.host = host
        configuration.port = port
        configuration.log = { line in Terminal.error(line) }
        let server = Server(configuration: configuration, router: WebApp(library: library).router)
        try server.start()
        let shown = host.contains(":") ? "[\(host)]" : host
        Terminal.out("CameraRoll is serving http://\(shown):\(server.port) (library: \(library.folder.root)). Ctrl-C stops it.")

        let housekeeping = Task.detached {
            // Expired unsaved captures and orphans are swept hourly, starting at once.
            while !Task.isCancelled {
                _ = try? library.collectGarbage()
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        let signal = await StopSignal.next()
        Terminal.error("Stopping (\(signal))...")
        housekeeping.cancel()
        await server.stop()
        try library.flush()
        Terminal.error("Stopped.")
        return 0
    }
}

/// Waits for SIGINT or SIGTERM, delivered through dispatch rather than an async-unsafe handler.
enum StopSignal {
    static func next() async -> String {
        await withCheckedContinuation { continuation in
            let queue = DispatchQueue(label: "cameraroll.signals")
            let resumed = NSLock()
            nonisolated(unsafe) var done = false
            nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    resumed.lock()
                    defer { resumed.unlock() }
                    guard !done else { return }
                    done = true
                    for source in sources { source.cancel() }
                    continuation.resume(returning: name)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
