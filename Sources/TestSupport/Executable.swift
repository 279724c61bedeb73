import ChildProcess
public import Foundation

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
        public let output: Data
        public let stderr: String

        public var stdout: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs the program to its end with the given arguments, extra environment and standard input.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, in folder: String? = nil
    ) async throws -> Output {
        try await run(program: path, arguments, input: input.map { Data($0.utf8) }, environment: environment, in: folder)
    }

    /// Runs any program to its end, with `input` as its standard input (else none). Waiting
    /// happens on threads of its own (`offThePool`), never on the cooperative pool or the global
    /// dispatch queues: a loaded suite's blocked global threads once starved the in-process
    /// clients of live servers until the server closed their connections.
    public static func run(
        program: String, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], in folder: String? = nil
    ) async throws -> Output {
        let inputFile = try input.map(temporaryFile)
        defer { inputFile.map { try? FileManager.default.removeItem(atPath: $0) } }
        let process = try SpawnedProcess(
            executable: program, arguments: arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            workingDirectory: folder, standardInput: inputFile.map { .file($0) } ?? .null, standardOutput: .pipe,
            standardError: .pipe)
        return try await offThePool {
            // Both pipes are drained while it runs, so a chatty child never blocks on a full pipe.
            let drained = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var errors = Data()
            Thread {
                errors = process.standardError!.readAllRetryingInterrupts()
                drained.signal()
            }.start()
            let output = process.standardOutput!.readAllRetryingInterrupts()
            let ended = process.waitUntilExit()
            drained.wait()
            return Output(status: ended.status, output: output, stderr: String(decoding: errors, as: UTF8.self))
        }
    }

    /// Standard input from a file rather than a pipe: writing into a pipe whose reader has
    /// exited would kill the test process with SIGPIPE. The child opens it as it starts.
    private static func temporaryFile(_ data: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
