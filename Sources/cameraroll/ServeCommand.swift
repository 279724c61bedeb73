import CameraRollServer
import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary

/// `cameraroll serve [--lan | --host ADDRESS] [--port N] [--cert FILE --key FILE]`: the web app,
/// until SIGINT or SIGTERM, which stop it gracefully (no new connections, requests in flight
/// finish, the database is flushed).
enum ServeCommand {
    static let valued = Listening.valued.union(["trusted-proxy", "stream-idle"])

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly(Listening.options.union(["trusted-proxy", "stream-idle"]))
        let proxies = try trustedProxies(arguments)
        let streamIdle = try streamIdleSeconds(arguments)
        guard arguments.positional.isEmpty else { throw UsageError("serve takes no file names.") }
        let library = try await context.openLibrary { line in Terminal.error(line) }
        let listening = try Listening(arguments, certificateFolder: library.folder.tls)
        // Everyone but this computer signs in with the owner's password, so serving beyond it
        // without one would lock everybody out: at a terminal it is set here, at first start.
        // Servers sharing a library are asked through balancers and each other, so this computer
        // is nobody's in particular: everyone signs in, with the password they share.
        let shared = context.database == nil ? nil : try await SharedCredentials.open(database: library.database)
        let users = shared.map(UserAccounts.init(shared:)) ?? UserAccounts(dataFolder: URL(fileURLWithPath: library.folder.root))
        if (!listening.onlyThisComputer || shared != nil) && (try? users.firstAdmin())?.password == nil {
            let who = shared != nil ? "everyone (the library is shared)" : "every device but this one"
            guard isatty(STDIN_FILENO) == 1 else {
                throw UsageError("Set the owner's password first (cameraroll passwd): \(who) signs in with it.")
            }
            Terminal.error(
                "\(who.prefix(1).uppercased() + who.dropFirst()) signs in with the owner's password. Choose it now (at least 8 characters)."
            )
            guard await PasswordCommand.set(whose: "owner", users.setFirstAdminPassword) else { return 1 }
        }
        // Servers sharing a database share the key their picked items' links are signed with.
        let key: CapabilityKey? =
            context.database == nil
            ? nil : try await CapabilityKey.shared { offered in try await library.catalog.sharedRecord("capability-key", orElse: offered) }
        let app = try WebApp(
            library: library, authorityFile: listening.authorityFile, names: listening.extraNames, capabilityKey: key,
            shared: shared)
        var configuration = Configuration(bodyDirectory: library.temporaryFolder)
        let log = BatchedLog(descriptor: STDERR_FILENO)
        configuration.log = { line in log.write(line) }
        configuration.trustedClients = app.trustedClients
        configuration.forwardedFor = ForwardedFor(proxies: proxies)
        let stop = StopSignal()
        let (server, host) = try listening.start(configuration, router: app.router)
        listening.announce(boundTo: host, port: server.port, library: library.folder.root)

        let housekeeping = Task.detached {
            // What has been in Recently Deleted for 30 days, expired unsaved captures and orphans
            // are swept hourly, starting at once, and the planner's statistics kept current.
            while !Task.isCancelled {
                _ = try? await library.ingest.purgeTrash()
                _ = try? await library.collectGarbage()
                _ = try? await library.optimize()
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        let streams = Task.detached {
            // A recording streamed while it was shot, whose page is gone, becomes an asset soon.
            while !Task.isCancelled {
                _ = try? await library.uploads.finishAbandonedStreams(idle: streamIdle)
                try? await Task.sleep(for: .seconds(max(1, min(5, streamIdle / 2))))
            }
        }
        let background = Task.detached {
            // Items from before places, or from another edition of the gazetteer, get theirs
            // (new ones get theirs as they come).
            do {
                try await library.geocoder.findPlaces()
            } catch {
                log.write("places: \(error)")
            }
            // Photos' words are read after their import, and again when a later reader comes:
            // looked for every minute, read one photo at a time at the lowest priority.
            while !Task.isCancelled {
                do {
                    try await library.wordReader.readWords()
                } catch {
                    log.write("words: \(error)")
                }
                try? await Task.sleep(for: .seconds(60))
            }
        }
        let signal = await stop.next()
        log.flush()
        Terminal.error("Stopping (\(signal))...")
        housekeeping.cancel()
        streams.cancel()
        background.cancel()
        await server.stop()
        log.flush()
        try await library.flush()
        Terminal.error("Stopped.")
        return 0
    }
}

/// `--trusted-proxy ADDRESS` (repeatable, or comma-separated): the load balancers whose
/// `X-Forwarded-For` names the client. Behind one, every connection is the balancer's, so without
/// it every client would count as the balancer, loopback included: the owner.
private func trustedProxies(_ arguments: Arguments) throws(UsageError) -> Set<IPAddress> {
    var proxies: Set<IPAddress> = []
    for word in arguments.values("trusted-proxy").flatMap({ $0.split(separator: ",") }) {
        guard let address = IPAddress(word.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError("--trusted-proxy takes IP addresses; \(word) is not one.")
        }
        proxies.insert(address)
    }
    return proxies
}

/// `--stream-idle SECONDS` (default 30): how long an upload streamed without a length (a
/// recording) may go without a piece before it is finished with the bytes it has.
private func streamIdleSeconds(_ arguments: Arguments) throws(UsageError) -> TimeInterval {
    guard let text = arguments.value("stream-idle") else { return 30 }
    guard let seconds = TimeInterval(text), seconds.isFinite, seconds >= 1, seconds <= 86400 else {
        throw UsageError("--stream-idle takes seconds, from 1 to 86400.")
    }
    return seconds
}

/// SIGINT and SIGTERM, delivered through dispatch rather than an async-unsafe handler, and
/// caught from the moment this is made: a signal that comes as soon as the server answers (a
/// service manager's, a test's) stops it gracefully rather than killing it with its log unwritten.
struct StopSignal {
    private let sources: [any DispatchSourceSignal]
    private let received: AsyncStream<String>

    init() {
        let (received, arrival) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let queue = DispatchQueue(label: "cameraroll.signals")
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { arrival.yield(name) }
            source.resume()
            return source
        }
        self.received = received
    }

    /// The first signal's name, once it comes.
    func next() async -> String {
        for await name in received { return name }
        return "SIGTERM"
    }
}
