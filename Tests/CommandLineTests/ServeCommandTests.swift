import ChildProcess
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `cameraroll serve` as a process: it answers /healthz once ready and stops cleanly on SIGTERM
/// and SIGINT, with exit status 0.
@Suite struct ServeCommandTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func servesUntilASignalThenStopsGracefully(signal: Int32) async throws {
        let directory = TemporaryDirectory("cameraroll-serve")
        let (process, output, errors) = try launch(["--data", directory.file("data"), "serve", "--port", "0"])
        defer { process.send(SIGTERM) }

        // The first line names the URL, with the port the server bound.
        let line = try await firstLine(of: output)
        let url = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: "\(url)/healthz")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("ok"))

        process.send(signal)
        let status = await exitStatus(of: process)
        #expect(status == 0)
        let log = String(decoding: try #require(errors).readAllRetryingInterrupts(), as: UTF8.self)
        #expect(log.contains("GET /healthz 200"))
        #expect(log.contains("Stopped."))
    }

    /// A script presents a picker through the running server; the page's steps are played here
    /// as the events the page sends. `several`: `--limit 3`, and an Add of two items.
    @Test(arguments: ["finish", "cancel", "several"])
    func pickPrintsTheInfoOrExitsOneOnCancel(ending: String) async throws {
        let run = try await pick(
            ["photos/exifsamples__Canon_40D.jpg", "photos/recurser__Landscape_1.jpg"], ending == "several" ? ["--limit", "3"] : []
        ) { ids in
            switch ending {
            case "finish": [#"{"event":"open"}"#, #"{"event":"choose","assetID":"\#(ids[0])"}"#]
            case "several": [#"{"event":"open"}"#, #"{"event":"add","assetIDs":["\#(ids[1])","\#(ids[0])"]}"#]
            default: [#"{"event":"cancel"}"#]
            }
        }
        let (assetID, otherID, base) = (run.ids[0], run.ids[1], run.base)
        switch ending {
        case "finish":
            #expect(run.status == 0)
            let info = try JSONSerialization.jsonObject(with: Data(run.printed.utf8)) as? [String: Any]
            #expect((info?["originalImage"] as? String)?.hasPrefix("\(base)/media/\(assetID)/original?cap=") == true)
            #expect(info?["mediaType"] as? String == "public.image")
        case "several":
            #expect(run.status == 0)
            let results = try JSONSerialization.jsonObject(with: Data(run.printed.utf8)) as? [[String: Any]]
            #expect(results?.map { $0["assetID"] as? String } == [otherID, assetID], "in the order added")
            #expect((results?.last?["originalImage"] as? String)?.hasPrefix("\(base)/media/\(assetID)/original?cap=") == true)
        default:
            #expect(run.status == 1)
        }
    }

    /// `--user anna` signs in as Anna (her password on standard input): the picker is hers from
    /// the start, so this computer's browser (the owner's) cannot take it, and her signed-in
    /// browser picks from her library. A wrong password ends it before any picker.
    @Test func pickSignsInAsAPerson() async throws {
        let directory = TemporaryDirectory("cameraroll-pick")
        let data = directory.file("data")
        _ = try await Executable.run(["--data", data, "passwd"], input: "the owner's password\n")
        #expect(try await Executable.run(["--data", data, "users", "add", "anna"], input: "anna's password\n").status == 0)
        let (server, serverOutput, _) = try launch(["--data", data, "serve", "--port", "0"], errors: .null)
        defer { server.send(SIGTERM) }
        let line = try await firstLine(of: serverOutput)
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)
        // Cookies only as each request names them: a session keeping one would ask as Anna throughout.
        let settings = URLSessionConfiguration.ephemeral
        settings.httpCookieStorage = nil
        settings.httpShouldSetCookies = false
        let client = URLSession(configuration: settings)
        func send(_ method: String, _ path: String, _ body: Data?, cookie: String? = nil) async throws -> (Int, [String: Any], String?) {
            var request = URLRequest(url: try #require(URL(string: base + path)))
            request.httpMethod = method
            request.httpBody = body
            request.setValue(cookie, forHTTPHeaderField: "Cookie")
            let (reply, response) = try await client.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            let object = (try? JSONSerialization.jsonObject(with: reply)) as? [String: Any] ?? [:]
            return (http.statusCode, object, http.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init))
        }
        let anna = try #require(try await send("POST", "/api/session", Data(#"{"user":"anna","password":"anna's password"}"#.utf8)).2)
        let photo = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/exifsamples__Canon_40D.jpg")))
        let hers = try #require(try await send("POST", "/api/assets", photo, cookie: anna).1["id"] as? String)

        let refused = try await Executable.run(["pick", "--server", base, "--user", "anna", "--no-open"], input: "not anna's password\n")
        #expect(refused.status != 0 && refused.stderr.contains("That name and password do not match"), "\(refused.stderr)")

        try Data("anna's password\n".utf8).write(to: URL(fileURLWithPath: directory.file("password")))
        let (pick, pickOutput, _) = try launch(
            ["pick", "--server", base, "--user", "anna", "--no-open"], input: .file(directory.file("password")), errors: .null)
        let prompt = try await firstLine(of: pickOutput)
        let session = String(try #require(prompt.split(separator: " ").first { $0.contains("/picker/") }).split(separator: "/").last ?? "")
        let events = "/api/picker/sessions/\(session)/events"
        #expect(try await send("POST", events, Data(#"{"event":"open"}"#.utf8)).0 == 404, "not the owner's to take")
        #expect(try await send("POST", events, Data(#"{"event":"open"}"#.utf8), cookie: anna).0 == 200)
        #expect(try await send("POST", events, Data(#"{"event":"choose","assetID":"\#(hers)"}"#.utf8), cookie: anna).0 == 200)
        #expect(await exitStatus(of: pick) == 0)
        let info = try JSONSerialization.jsonObject(with: pickOutput.readAllRetryingInterrupts()) as? [String: Any]
        #expect(info?["assetID"] as? String == hers)
    }

    /// `--media image,live-photo` asks for Live Photos as one (UIKit's com.apple.live-photo): the
    /// printed info has the still's and the movie's links, absolute as every other link, alone
    /// and in a multiple selection; without it a Live Photo is its still alone.
    @Test(arguments: [["--media", "image,live-photo"], ["--media", "image,live-photo", "--limit", "2"], []])
    func pickAsksForLivePhotosAsBothFiles(arguments: [String]) async throws {
        let run = try await pick(["videos/lychee__train.mov", "photos/lychee__train.jpg", "photos/exifsamples__Canon_40D.jpg"], arguments) {
            ids in
            arguments.contains("--limit")
                ? [#"{"event":"open"}"#, #"{"event":"add","assetIDs":["\#(ids[2])","\#(ids[1])"]}"#]
                : [#"{"event":"open"}"#, #"{"event":"choose","assetID":"\#(ids[1])"}"#]
        }
        #expect(run.status == 0, "\(run.printed)")
        let printed = try JSONSerialization.jsonObject(with: Data(run.printed.utf8))
        let results = try #require(arguments.contains("--limit") ? printed as? [[String: Any]] : (printed as? [String: Any]).map { [$0] })
        let info = try #require(results.last)
        #expect(info["assetID"] as? String == run.ids[1])
        guard !arguments.isEmpty else {
            #expect(info["livePhoto"] == nil, "without live-photo, the still alone")
            return
        }
        let urls = try #require(info["livePhoto"] as? [String: String])
        #expect(urls["imageURL"] == info["originalImage"] as? String)
        #expect(urls["imageURL"]?.hasPrefix("\(run.base)/media/\(run.ids[1])/") == true, "\(urls)")
        #expect(urls["movieURL"]?.hasPrefix("\(run.base)/media/\(run.ids[0])/") == true, "\(urls)")

        let refused = try await Executable.run(["pick", "--media", "live-photo", "--server", run.base, "--no-open"])
        #expect(refused.status != 0 && refused.stderr.contains("goes with public.image"), "\(refused.stderr)")
    }

    /// What `cameraroll pick` printed, and how it ended, when the page's `events` (given the ids
    /// of the corpus files `uploads`, in order) were played against a fresh server.
    private func pick(_ uploads: [String], _ arguments: [String], events: ([String]) -> [String]) async throws
        -> (status: Int32, printed: String, ids: [String], base: String)
    {
        let directory = TemporaryDirectory("cameraroll-pick")
        let (server, serverOutput, _) = try launch(["--data", directory.file("data"), "serve", "--port", "0"], errors: .null)
        defer { server.send(SIGTERM) }
        let line = try await firstLine(of: serverOutput)
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)

        var ids: [String] = []
        for file in uploads {
            var upload = URLRequest(url: try #require(URL(string: "\(base)/api/assets")))
            upload.httpMethod = "POST"
            upload.httpBody = try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file)))
            let (uploaded, _) = try await URLSession.shared.data(for: upload)
            ids.append(try #require((try JSONSerialization.jsonObject(with: uploaded) as? [String: Any])?["id"] as? String))
        }

        let (pick, pickOutput, _) = try launch(["pick", "--server", base, "--source", "library", "--no-open"] + arguments, errors: .null)
        let prompt = try await firstLine(of: pickOutput)
        let page = try #require(prompt.split(separator: " ").first { $0.contains("/picker/") })
        let session = String(page.split(separator: "/").last ?? "")
        for body in events(ids) {
            var event = URLRequest(url: try #require(URL(string: "\(base)/api/picker/sessions/\(session)/events")))
            event.httpMethod = "POST"
            event.httpBody = Data(body.utf8)
            let (_, response) = try await URLSession.shared.data(for: event)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(body)")
        }
        let status = await exitStatus(of: pick)
        return (status, String(decoding: pickOutput.readAllRetryingInterrupts(), as: UTF8.self), ids, base)
    }

    /// `--lan` makes its local authority and a certificate it signs at first start, and keeps both:
    /// every test connection goes to 127.0.0.1, which the certificate covers like the LAN
    /// addresses it prints, from a client that trusts only the authority.
    @Test func lanServesHTTPSOnACertificateOfItsOwnAuthorityAndKeepsBothForTheNextStart() async throws {
        let directory = TemporaryDirectory("cameraroll-lan")
        let authority = directory.file("data/tls/authority.pem")
        let certificate = directory.file("data/tls/certificate.pem")
        let password = try await Executable.run(["--data", directory.file("data"), "passwd"], input: "the owner's password\n")
        #expect(password.status == 0, "beyond this computer, serving needs the owner's password")
        var fingerprints: [String] = []
        var certificates: [String] = []
        for start in 0..<2 {
            let (process, lines) = try await serve(["--data", directory.file("data"), "serve", "--lan", "--port", "0"])
            defer { process.send(SIGTERM) }
            let port = try #require(lines.first?.firstMatch(of: /every address, port (\d+)/)?.1)
            let urls = lines.filter { $0.hasPrefix("  https://") }
            #expect(urls.allSatisfy { $0.hasSuffix(":\(port)/") })
            #expect(!urls.isEmpty || lines.contains { $0.contains("no network address") })
            #expect(urls.isEmpty || lines.contains { $0.contains("\u{1B}[38;5;16;48;5;231m") && $0.contains("▀") })
            #expect(
                urls.isEmpty
                    || lines.contains { $0.hasPrefix("Download it on the phone") && $0.hasSuffix(":\(port)/cameraroll-authority.pem") })
            #expect(lines.last == "The authority's file: \(authority)")
            #expect(lines.contains { $0.hasPrefix("A new") } == false)
            let shown = try #require(lines.firstIndex { $0.hasSuffix("SHA-256 fingerprint for it:") })
            fingerprints.append(lines[shown + 1].trimmingCharacters(in: .whitespaces))
            certificates.append(try String(contentsOfFile: certificate, encoding: .utf8))
            if start == 0 {
                let openssl = try await Executable.run(
                    program: "/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", authority])
                #expect(openssl.stdout.trimmingCharacters(in: .newlines).hasSuffix("=\(fingerprints[0])"))
            }

            let trusted = try await curl(["--cacert", authority, "https://127.0.0.1:\(port)/healthz"])
            #expect(trusted.status == 0)
            #expect(trusted.stdout.contains("ok"))
            // Without the authority as trust anchor, the client refuses the server.
            #expect(try await curl(["https://127.0.0.1:\(port)/healthz"]).status == 60)

            let download = try await curl(["--cacert", authority, "--include", "https://127.0.0.1:\(port)/cameraroll-authority.pem"])
            #expect(download.status == 0)
            #expect(download.stdout.lowercased().contains("content-type: application/x-x509-ca-cert"))
            #expect(download.stdout.contains(#"attachment; filename="CameraRoll authority.crt""#))
            #expect(download.stdout.hasSuffix(try String(contentsOfFile: authority, encoding: .utf8)))

            process.send(SIGTERM)
            #expect(await exitStatus(of: process) == 0)
        }
        #expect(fingerprints[0] == fingerprints[1])
        #expect(fingerprints[0].count == 95)
        #expect(certificates[0] == certificates[1])
    }

    @Test func loopbackWithTheUsersCertificateServesHTTPS() async throws {
        let directory = TemporaryDirectory("cameraroll-cert")
        let (certificate, key) = (directory.file("mine.pem"), directory.file("mine-key.pem"))
        let made = try await Executable.run(
            program: "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=mine",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ])
        try #require(made.status == 0)
        let (process, lines) = try await serve(
            ["--data", directory.file("data"), "serve", "--cert", certificate, "--key", key, "--port", "0"],
            until: { $0.hasPrefix("Certificate (yours)") })
        defer { process.send(SIGTERM) }
        let url = try #require(lines.first?.firstMatch(of: /https:\/\/127\.0\.0\.1:\d+/)?.0)
        let reply = try await curl(["--cacert", certificate, "\(url)/healthz"])
        #expect(reply.status == 0)
        #expect(reply.stdout.contains("ok"))
        #expect(!lines.contains { $0.contains("authority") })
        let noAuthority = try await curl(["--cacert", certificate, "--write-out", "%{http_code}", "\(url)/cameraroll-authority.pem"])
        #expect(noAuthority.stdout.contains("not_found"))
        #expect(noAuthority.stdout.hasSuffix("404"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("data/tls")))
        process.send(SIGTERM)
        #expect(await exitStatus(of: process) == 0)
    }

    /// A movie whose rendition always fails runs ffmpeg once: the failure is kept and reported,
    /// with a code and a message for people (what ffmpeg said goes to the server's log), until
    /// someone asks for it to be made again. Polls and requests for the video never do.
    @Test func aFailedRenditionIsReportedAndMadeAgainOnlyWhenAsked() async throws {
        let directory = TemporaryDirectory("cameraroll-rendition")
        let ffmpeg = try CountingFFmpeg(in: directory)
        let (process, output, errors) = try launch(
            ["--data", directory.file("data"), "serve", "--port", "0"], environment: ["CAMERAROLL_FFMPEG": ffmpeg.path])
        defer { process.send(SIGTERM) }
        let line = try await firstLine(of: output)
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)
        func ask(_ method: String, _ path: String, body: Data? = nil) async throws -> (status: Int, json: [String: Any]) {
            var request = URLRequest(url: try #require(URL(string: base + path)))
            request.httpMethod = method
            request.httpBody = body
            let (data, response) = try await URLSession.shared.data(for: request)
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
        }
        func settled(_ id: String) async throws -> [String: Any] {
            for _ in 0..<600 {
                let state = try await ask("GET", "/api/assets/\(id)/rendition").json
                if state["status"] as? String != "pending" { return state }
                try await Task.sleep(for: .milliseconds(100))
            }
            return [:]
        }

        let uploaded = try await ask("POST", "/api/assets", body: try UnconvertibleMovie.bytes())
        #expect(uploaded.status == 201 && uploaded.json["browserPlayable"] as? Bool == false)
        let id = try #require(uploaded.json["id"] as? String)
        #expect(try await ask("GET", "/api/assets/\(id)/rendition").json["status"] as? String == "notStarted")
        #expect(ffmpeg.runs(with: "libx264") == 0)

        let asked = try await ask("GET", "/media/\(id)/video")
        #expect(asked.status == 202 || asked.status == 422)
        let failed = try await settled(id)
        #expect(failed["status"] as? String == "failed")
        #expect(failed["code"] as? String == "corrupt")
        let message = try #require(failed["message"] as? String)
        #expect(message == "The video could not be decoded.")
        #expect(ffmpeg.runs(with: "libx264") == 1)

        // A page polling, and players asking for the video, never start it again.
        for _ in 0..<5 {
            #expect(try await ask("GET", "/api/assets/\(id)/rendition").json["status"] as? String == "failed")
            let video = try await ask("GET", "/media/\(id)/video")
            #expect(video.status == 422 && video.json["status"] as? String == "failed" && video.json["code"] as? String == "corrupt")
        }
        try await Task.sleep(for: .seconds(1))
        #expect(ffmpeg.runs(with: "libx264") == 1)

        // The user's Try again makes it once more, and it fails the same way.
        let retried = try await ask("POST", "/api/assets/\(id)/rendition")
        #expect(retried.status == 202 && retried.json["status"] as? String == "pending")
        #expect(try await settled(id)["code"] as? String == "corrupt")
        #expect(ffmpeg.runs(with: "libx264") == 2)

        process.send(SIGTERM)
        #expect(await exitStatus(of: process) == 0)
        let log = String(decoding: try #require(errors).readAllRetryingInterrupts(), as: UTF8.self)
        // What ffmpeg said is the operator's, in the log; the client got only the message above.
        #expect(log.contains("mpegh_3d_audio"))
        #expect(!message.contains("mpegh") && !message.contains("ffmpeg"))
    }

    /// Behind a balancer on this machine every connection is from loopback: with the balancer
    /// named (here at 127.0.0.2), the client is the one it forwarded for, and a client that says
    /// it is loopback is not. Nor is one the balancer says is: it names 127.0.0.1 for every
    /// process on its own host, and none of them is this computer, nor the owner.
    @Test func behindATrustedProxyLoopbackIsNotTheOwner() async throws {
        let directory = TemporaryDirectory("cameraroll-proxy")
        let (process, output, _) = try launch(["--data", directory.file("data"), "serve", "--port", "0", "--trusted-proxy", "127.0.0.2"])
        defer { process.send(SIGTERM) }
        let line = try await firstLine(of: output)
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)
        func throughTheBalancer(_ forwarded: String?, _ path: String) async throws -> Executable.Output {
            let headers = forwarded.map { ["-H", "X-Forwarded-For: \($0)"] } ?? []
            return try await curl(["--interface", "127.0.0.2", "-w", "\n%{http_code}"] + headers + ["\(base)\(path)"])
        }
        func isLocal(_ forwarded: String?) async throws -> Bool? {
            let reply = try await throughTheBalancer(forwarded, "/api/session").stdout.split(separator: "\n").first ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any])?["local"] as? Bool
        }
        #expect(try await isLocal("198.51.100.7") == false)
        #expect(try await isLocal("127.0.0.1, 198.51.100.7") == false, "what the client wrote is not read")
        #expect(try await isLocal(nil) == true, "the balancer's own requests (its health checks) are its own")
        for forwarded in ["127.0.0.1", "::ffff:127.0.0.1", "198.51.100.7, 127.0.0.1", "::1"] {
            #expect(try await isLocal(forwarded) == false, "\(forwarded)")
            let listing = try await throughTheBalancer(forwarded, "/api/assets").stdout
            #expect(listing.hasSuffix("\n401"), "\(forwarded): \(listing)")
        }
        process.send(SIGTERM)
        #expect(await exitStatus(of: process) == 0)
        #expect(try await Executable.run(["--data", directory.file("data"), "serve", "--trusted-proxy", "balancer"]).status == 2)
    }

    /// A library servers share is asked through balancers and other servers on this machine, so
    /// loopback is nobody's: serving it needs the owner's password, and everyone signs in. The
    /// password and the allowed apps are the database's, the same for every server's data folder.
    @Test func overASharedDatabaseLoopbackIsNotTheOwner() async throws {
        let directory = TemporaryDirectory("cameraroll-shared")
        let database = try await ThrowawayPostgres.newDatabase()
        let data = ["--data", directory.file("data"), "--database", database]
        let refused = try await Executable.run(data + ["serve", "--port", "0"])
        #expect(refused.status == 2 && refused.stderr.contains("everyone"), "\(refused.stderr)")
        let set = try await Executable.run(
            ["--data", directory.file("elsewhere"), "--database", database, "passwd"], input: "a long password\n")
        #expect(set.status == 0 && set.stdout.contains("database"), "\(set.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("elsewhere/users.json")))
        let added = try await Executable.run(
            ["--data", directory.file("elsewhere"), "--database", database, "apps", "add", "https://blog.example", "--name", "Blog"])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await Executable.run(data + ["apps", "list"])
        #expect(listed.stdout.contains("https://blog.example"), "\(listed.stdout)")
        // The program's options work after the command too: `serve --database URL`.
        let (process, output, _) = try launch(["serve", "--port", "0"] + data)
        defer { process.send(SIGTERM) }
        let line = try await firstLine(of: output)
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)
        let session = try await curl(["\(base)/api/session"])
        #expect(session.stdout.contains("\"local\":false"), "\(session.stdout)")
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", "\(base)/api/assets"]).stdout == "401")
        let signedIn = try await curl(["-d", #"{"password":"a long password"}"#, "\(base)/api/session"])
        #expect(signedIn.stdout.contains("\"signedIn\":true"), "the password another data folder set: \(signedIn.stdout)")
        process.send(SIGTERM)
        #expect(await exitStatus(of: process) == 0)
    }

    @Test func optionsThatDoNotGoTogetherAreRefused() async throws {
        let directory = TemporaryDirectory("cameraroll-options")
        let data = directory.file("data")
        #expect(try await Executable.run(["--data", data, "serve", "--cert", "a.pem", "--port", "0"]).status == 2)
        #expect(try await Executable.run(["--data", data, "serve", "--lan", "--host", "127.0.0.1", "--port", "0"]).status == 2)
        let missing = try await Executable.run(["--data", data, "serve", "--cert", "no.pem", "--key", "no.pem", "--port", "0"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("certificate_unreadable"))
    }

    /// Starts `cameraroll` with both its outputs piped, and `environment` added to this process's.
    /// Starts `cameraroll` with its standard output piped, and its standard error piped unless
    /// `errors` says otherwise (a pipe nobody reads would stop a chatty server once full).
    private func launch(
        _ arguments: [String], environment: [String: String] = [:], input: SpawnedProcess.Input = .null,
        errors: SpawnedProcess.Output = .pipe
    ) throws -> (SpawnedProcess, FileHandle, FileHandle?) {
        let process = try SpawnedProcess(
            executable: Executable.path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, standardInput: input, standardOutput: .pipe,
            standardError: errors)
        return (process, process.standardOutput!, process.standardError)
    }

    /// Starts `cameraroll` and reads its standard output up to the line `until` accepts (by default
    /// the last of the trust instructions).
    private func serve(
        _ arguments: [String], until last: @escaping @Sendable (String) -> Bool = { $0.hasPrefix("The authority's file: ") }
    ) async throws -> (SpawnedProcess, [String]) {
        let process = try SpawnedProcess(
            executable: Executable.path, arguments: arguments, environment: ProcessInfo.processInfo.environment,
            standardOutput: .pipe, standardError: .null)
        let output = process.standardOutput!
        // A server that never prints the line would leave the test reading forever.
        let deadline = Task {
            try await Task.sleep(for: .seconds(120))
            process.send(SIGTERM)
        }
        defer { deadline.cancel() }
        var lines: [String] = []
        while lines.last.map(last) != true {
            let line = try await firstLine(of: output)
            guard !line.isEmpty || process.isRunning else { break }
            lines.append(line)
        }
        return (process, lines)
    }

    private func curl(_ arguments: [String]) async throws -> Executable.Output {
        try await Executable.run(program: "/usr/bin/curl", ["--silent", "--noproxy", "*", "--max-time", "60"] + arguments)
    }

    private func firstLine(of handle: FileHandle) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readAllRetryingInterrupts(upTo: 1)
                    guard let byte = chunk.first else { break }
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    private func exitStatus(of process: SpawnedProcess) async -> Int32 {
        await process.termination.status
    }
}
