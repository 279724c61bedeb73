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

    /// Runs the program to its end with the given arguments and extra environment.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain both pipes while it runs so a chatty child never blocks on a full pipe.
        let output = Drain(stdout.fileHandleForReading)
        let errors = Drain(stderr.fileHandleForReading)
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
    }

    private final class Drain: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            DispatchQueue.global().async {
                self.data = handle.readDataToEndOfFile()
                self.done.signal()
            }
        }

        func text() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
