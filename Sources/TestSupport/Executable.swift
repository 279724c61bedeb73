import Foundation

/// The `cameraroll` program built beside the test bundle, run as a child process.
public enum Executable {
    public static let path: String = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        // The test bundle may be a folder (…/X.xctest/…) inside the build products folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("cameraroll").path) && folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("cameraroll").path
    }()

    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs the program to its end with the given arguments, extra environment and standard
    /// input. Waiting happens on dispatch threads, so the cooperative pool stays free for the
    /// other tests.
    public static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) async throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try process.run()
                    if let input {
                        stdin.fileHandleForWriting.write(Data(input.utf8))
                        try stdin.fileHandleForWriting.close()
                    }
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                // Both pipes are drained while it runs, so a chatty child never blocks on a full pipe.
                let group = DispatchGroup()
                nonisolated(unsafe) var output = Data()
                nonisolated(unsafe) var errors = Data()
                DispatchQueue.global().async(group: group) { output = stdout.fileHandleForReading.readDataToEndOfFile() }
                DispatchQueue.global().async(group: group) { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
                process.waitUntilExit()
                group.wait()
                continuation.resume(
                    returning: Output(
                        status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                        stderr: String(decoding: errors, as: UTF8.self)))
            }
        }
    }
}
