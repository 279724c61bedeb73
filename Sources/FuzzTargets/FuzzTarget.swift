import ChildProcess
import Foundation

/// One parser of ours, as libFuzzer drives it: bytes in, and a trap (an overflow, a broken
/// invariant, a memory error under AddressSanitizer) is what a fuzz run finds. `make fuzz` runs
/// each target for a bounded time; `make test` replays every saved input and crash through the
/// same `run`, so whatever a fuzz run once found stays found.
public struct FuzzTarget: Sendable {
    public let name: String
    /// What it reads, for `cameraroll-fuzz --list`.
    public let summary: String
    /// Folders of the shared corpus (`photos`, `videos`, `bad`) whose files seed the target.
    public let seedFolders: [String]
    /// The seed a corpus file gives: the file itself, or a part of it the parser reads.
    public let seed: @Sendable (String) async -> [UInt8]?
    /// Inputs as clients send them, to start a text parser's fuzzing from.
    public let examples: [String]
    /// The longest input worth mutating (libFuzzer's `-max_len`).
    public let maxLength: Int
    public let run: @Sendable (UnsafeRawBufferPointer) -> Void

    init(
        _ name: String, _ summary: String, seeds seedFolders: [String] = [], maxLength: Int = 4096,
        seed: @escaping @Sendable (String) async -> [UInt8]? = { FileManager.default.contents(atPath: $0).map(Array.init) },
        examples: [String] = [], run: @escaping @Sendable (UnsafeRawBufferPointer) -> Void
    ) {
        self.examples = examples
        self.name = name
        self.summary = summary
        self.seedFolders = seedFolders
        self.seed = seed
        self.maxLength = maxLength
        self.run = run
    }

    public static let all: [FuzzTarget] =
        imagingTargets + videoTargets + libraryTargets + credentialsTargets + httpTargets + serverTargets
        + storageTargets

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// Breaks the run when a parser's answer contradicts itself: a crash is what libFuzzer records.
func require(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(what())") }
}

/// Parsers that read a file by its path get the input written to a file of their own.
func withFile(_ bytes: UnsafeRawBufferPointer, suffix: String, _ body: (String) -> Void) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-fuzz-\(UUID().uuidString)\(suffix)").path
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
    defer { try? FileManager.default.removeItem(atPath: path) }
    body(path)
}

/// Text parsers get the input as UTF-8, invalid sequences repaired as a server decoding
/// headers or JSON would.
func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// What a tool writes to standard output when it makes a seed, or nil when it fails.
func seedTool(_ executable: String, _ arguments: [String]) async -> [UInt8]? {
    let run = try? await ChildProcess(timeout: .seconds(60)).run(
        executable: executable, arguments: arguments, environment: [:], stdoutLimit: 1 << 24)
    guard let run, run.succeeded, !run.stdoutOverflowed else { return nil }
    return Array(run.stdout)
}
