import CameraRollServer
import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The web app over a library in a temp folder, asked in process (`InProcessClient`: the
/// server's routing, gate, body policy and response shaping, without a socket) or, for what only
/// a connection shows, on a real loopback port.
final class LiveServer: Sendable {
    enum Transport: Sendable {
        case inProcess
        case socket
    }

    let directory: TemporaryDirectory
    let library: Library
    let app: WebApp
    /// The server on its port; nil in process.
    let server: Server?
    private let client: InProcessClient
    let session: URLSession

    convenience init(_ transport: Transport = .inProcess) throws {
        let directory = TemporaryDirectory("cameraroll-server")
        try self.init(directory, library: try Library(folder: DataFolder(directory.path)), transport: transport)
    }

    /// Over a library of the caller's, whose data folder is `directory`.
    /// `forwardedFor`: proxies whose X-Forwarded-For names the client, so that a test on loopback
    /// can ask as someone else.
    /// `shared`: the sign-in state servers sharing the library keep together.
    init(
        _ directory: TemporaryDirectory, library: Library, capabilityKey: CapabilityKey? = nil, shared: SharedCredentials? = nil,
        forwardedFor: ForwardedFor = ForwardedFor(proxies: []), transport: Transport = .inProcess
    ) throws {
        self.directory = directory
        self.library = library
        var configuration = Configuration(bodyDirectory: library.temporaryFolder)
        configuration.port = 0
        configuration.forwardedFor = forwardedFor
        // Timeouts as long as the client's below: in a loaded suite an in-process client can be held
        // up for a minute between connecting and sending its request, which the default head
        // timeout (10 s) would take for an idle connection. HeadTimeoutTests time those.
        configuration.headTimeout = .seconds(600)
        configuration.connectionTimeout = .seconds(600)
        app = try WebApp(library: library, capabilityKey: capabilityKey, shared: shared)
        client = InProcessClient(router: app.router, bodyDirectory: library.temporaryFolder, forwardedFor: forwardedFor)
        switch transport {
        case .inProcess:
            server = nil
        case .socket:
            let server = Server(configuration: configuration, router: app.router)
            try server.start()
            self.server = server
        }
        let settings = URLSessionConfiguration.ephemeral
        settings.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        // As long as the server's own connection timeout in tests: at the start of the whole suite
        // hundreds of tests share two cores, and an import that takes minutes then is slow, not
        // wrong (a test fails when no answer ever comes; speed is measured by make bench).
        settings.timeoutIntervalForRequest = 600
        session = URLSession(configuration: settings)
    }

    /// The port of a server started with `.socket`.
    var port: Int { server?.port ?? 0 }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    typealias Reply = FetchedReply

    /// `timeout`: seconds without an answer before the request fails (by default the session's;
    /// in process, none).
    func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:], timeout: TimeInterval? = nil)
        async throws -> Reply
    {
        guard server != nil else {
            var fields = Headers(headers.map { ($0.key, $0.value) })
            if fields["Host"] == nil { fields["Host"] = "127.0.0.1" }
            let reply = try await withThrowingTaskGroup(of: InProcessClient.Reply?.self) { [client, fields] group in
                group.addTask { try await client.send(method, path, headers: fields, body: body.map { Array($0) }) }
                if let timeout {
                    group.addTask {
                        try await Task.sleep(for: .seconds(timeout))
                        return nil
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let reply = first else { throw URLError(.timedOut) }
                return reply
            }
            var merged: [String: String] = [:]
            for field in reply.headers { merged[field.name] = merged[field.name].map { "\($0), \(field.value)" } ?? field.value }
            return Reply(status: reply.status, headers: merged, body: Data(reply.body))
        }
        var request = URLRequest(url: url(path))
        if let timeout { request.timeoutInterval = timeout }
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await Reply(request, on: session)
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> Reply {
        try await request("GET", path, headers: headers)
    }

    /// Uploads a corpus file as a browser would: its bytes as the body, its name in X-Filename.
    func upload(_ file: String, query: String = "", headers: [String: String] = [:]) async throws -> Reply {
        let data = try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))
        let name = (file as NSString).lastPathComponent
        return try await request(
            "POST", "/api/assets\(query)", body: data,
            headers: [
                "Content-Type": "application/octet-stream",
                "X-Filename": name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            ].merging(headers) { $1 })
    }

    deinit {
        // Not awaited: a deinit cannot wait without holding a thread the stop may need.
        guard let server else { return }
        Task.detached { await server.stop() }
    }
}

extension LiveServer {
    /// A server whose clients a proxy on loopback names (`X-Forwarded-For`), so a test asks as a
    /// phone on the LAN would, with two people: the owner ("the owner's password") and Anna
    /// ("anna's password").
    static func family() async throws -> LiveServer {
        let directory = TemporaryDirectory("cameraroll-server")
        let live = try LiveServer(
            directory, library: try Library(folder: DataFolder(directory.path)),
            forwardedFor: ForwardedFor(proxies: [IPAddress("127.0.0.1")!]))
        let users = UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root))
        try await users.setFirstAdminPassword("the owner's password")
        try await users.add("anna", admin: false, password: "anna's password")
        return live
    }
}
