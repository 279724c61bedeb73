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
