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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Executable.path)
        process.arguments = ["--data", directory.file("data"), "serve", "--port", "0"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line names the URL, with the port the server bound.
        let line = try await firstLine(of: output.fileHandleForReading)
        let url = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: "\(url)/healthz")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("ok"))

        kill(process.processIdentifier, signal)
        let status = await exitStatus(of: process)
        #expect(status == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /healthz 200"))
        #expect(log.contains("Stopped."))
    }

    /// A script presents a picker through the running server; the page's steps are played here
    /// as the events the page sends.
    @Test(arguments: [true, false])
    func pickPrintsTheInfoOrExitsOneOnCancel(finish: Bool) async throws {
        let directory = TemporaryDirectory("cameraroll-pick")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Executable.path)
        server.arguments = ["--data", directory.file("data"), "serve", "--port", "0"]
        let serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        let line = try await firstLine(of: serverOutput.fileHandleForReading)
        let base = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }).trimmingCharacters(in: .punctuationCharacters)

        var upload = URLRequest(url: try #require(URL(string: "\(base)/api/assets")))
        upload.httpMethod = "POST"
        upload.httpBody = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/exifsamples__Canon_40D.jpg")))
        let (uploaded, _) = try await URLSession.shared.data(for: upload)
        let assetID = try #require((try JSONSerialization.jsonObject(with: uploaded) as? [String: Any])?["id"] as? String)

        let pick = Process()
        pick.executableURL = URL(fileURLWithPath: Executable.path)
        pick.arguments = ["pick", "--server", base, "--source", "library", "--no-open"]
        let pickOutput = Pipe()
        pick.standardOutput = pickOutput
        pick.standardError = FileHandle.nullDevice
        try pick.run()
        let prompt = try await firstLine(of: pickOutput.fileHandleForReading)
        let page = try #require(prompt.split(separator: " ").first { $0.contains("/picker/") })
        let session = String(page.split(separator: "/").last ?? "")
        for body in finish ? [#"{"event":"open"}"#, #"{"event":"choose","assetID":"\#(assetID)"}"#] : [#"{"event":"cancel"}"#] {
            var event = URLRequest(url: try #require(URL(string: "\(base)/api/picker/sessions/\(session)/events")))
            event.httpMethod = "POST"
            event.httpBody = Data(body.utf8)
            let (_, response) = try await URLSession.shared.data(for: event)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        let status = await exitStatus(of: pick)
        let printed = String(decoding: pickOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if finish {
            #expect(status == 0)
            let info = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]
            #expect((info?["originalImage"] as? String)?.hasPrefix("\(base)/media/\(assetID)/original?cap=") == true)
            #expect(info?["mediaType"] as? String == "public.image")
        } else {
            #expect(status == 1)
        }
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
            defer { if process.isRunning { process.terminate() } }
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

            kill(process.processIdentifier, SIGTERM)
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
        defer { if process.isRunning { process.terminate() } }
        let url = try #require(lines.first?.firstMatch(of: /https:\/\/127\.0\.0\.1:\d+/)?.0)
        let reply = try await curl(["--cacert", certificate, "\(url)/healthz"])
        #expect(reply.status == 0)
        #expect(reply.stdout.contains("ok"))
        #expect(!lines.contains { $0.contains("authority") })
        let noAuthority = try await curl(["--cacert", certificate, "--write-out", "%{http_code}", "\(url)/cameraroll-authority.pem"])
        #expect(noAuthority.stdout.contains("not_found"))
        #expect(noAuthority.stdout.hasSuffix("404"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("data/tls")))
        kill(process.processIdentifier, SIGTERM)
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

    /// Starts `cameraroll` and reads its standard output up to the line `until` accepts (by default
    /// the last of the trust instructions).
    private func serve(
        _ arguments: [String], until last: @escaping @Sendable (String) -> Bool = { $0.hasPrefix("The authority's file: ") }
    ) async throws -> (Process, [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Executable.path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A server that never prints the line would leave the test reading forever.
        let deadline = Task {
            try await Task.sleep(for: .seconds(120))
            process.terminate()
        }
        defer { deadline.cancel() }
        var lines: [String] = []
        while lines.last.map(last) != true {
            let line = try await firstLine(of: output.fileHandleForReading)
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
                    let chunk = handle.readData(ofLength: 1)
                    guard let byte = chunk.first else { break }
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    private func exitStatus(of process: Process) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }
}
