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
