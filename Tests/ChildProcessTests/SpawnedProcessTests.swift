import ChildProcess
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SpawnedProcessTests {
    /// What `script` wrote to standard output (standard error with it), run by `/bin/sh`.
    func said(
        _ script: String, workingDirectory: String? = nil, input: SpawnedProcess.Input = .null
    ) async throws -> (text: String, termination: SpawnedProcess.Termination) {
        let process = try SpawnedProcess(
            executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
            workingDirectory: workingDirectory, standardInput: input, standardOutput: .pipe, standardError: .standardOutput)
        let output = try await offThePool { process.standardOutput!.readAllRetryingInterrupts() }
        return (String(decoding: output, as: UTF8.self), await process.termination)
    }

    /// Foundation's Process read past a buffer when started from a process holding more than
    /// ~1,350 descriptors, as a busy server does: here 2,000 are open, and the child gets none of them.
    @Test func aChildOfAProcessWithManyDescriptorsKeepsOnlyItsThree() async throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let wanted: rlim_t = 2_100 + 1_000
        if limit.rlim_cur < wanted {
            try #require(limit.rlim_max >= wanted, "this machine allows \(limit.rlim_max) open files")
            limit.rlim_cur = wanted
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        // Without close-on-exec, as a library's descriptor might be: only the child's own
        // closing keeps them out of it.
        let held = (0..<2_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { for descriptor in held { close(descriptor) } }
        try #require(held.allSatisfy { $0 >= 0 })

        let (text, termination) = try await said("ls /proc/$$/fd")
        #expect(termination == SpawnedProcess.Termination(status: 0, signalled: false))
        let kept = text.split(separator: "\n").map(String.init)
        #expect(kept.sorted() == ["0", "1", "2"], "the child kept \(kept.count) descriptors")
    }

    /// The threads that start children block signals (the cooperative pool's block nearly all)
    /// and a server ignores SIGPIPE; a child inherits neither, or it would not stop on SIGTERM.
    @Test func aChildStartsWithNoSignalBlockedOrIgnored() async throws {
        signal(SIGPIPE, SIG_IGN)
        let text = try await offThePool { () throws -> String in
            var everything = sigset_t()
            sigfillset(&everything)
            pthread_sigmask(SIG_SETMASK, &everything, nil)
            let process = try SpawnedProcess(
                executable: "/bin/grep", arguments: ["-E", "^Sig(Blk|Ign)", "/proc/self/status"], environment: [:],
                standardOutput: .pipe)
            defer { _ = process.waitUntilExit() }
            return String(decoding: process.standardOutput!.readAllRetryingInterrupts(), as: UTF8.self)
        }
        let masks = Dictionary(
            uniqueKeysWithValues: text.split(separator: "\n").map { line in
                let parts = line.split(separator: ":\t")
                return (String(parts[0]), UInt64(parts[1], radix: 16) ?? .max)
            })
        #expect(masks["SigBlk"] == 0, "\(text)")
        // Signals 1 to 31; glibc's own two above them (cancellation, setxid) are its business.
        #expect(masks["SigIgn"].map { $0 & 0x7fff_ffff } == 0, "\(text)")
    }

    @Test func aChildStartsInItsFolderReadingItsInput() async throws {
        let folder = TemporaryDirectory("spawn")
        try Data("from the file".utf8).write(to: URL(fileURLWithPath: folder.file("input")))
        let (text, termination) = try await said(
            "pwd; cat; echo ' and to stderr' >&2; exit 3", workingDirectory: folder.path, input: .file(folder.file("input")))
        #expect(text == "\(folder.path)\nfrom the file and to stderr\n")
        #expect(termination == SpawnedProcess.Termination(status: 3, signalled: false))
    }

    @Test func aSignalEndsItAndIsToldAsSuch() async throws {
        let process = try SpawnedProcess(executable: "/bin/sleep", arguments: ["600"], environment: [:])
        #expect(process.isRunning)
        process.send(SIGTERM)
        #expect(await process.termination == SpawnedProcess.Termination(status: SIGTERM, signalled: true))
        #expect(!process.isRunning)
        // Reaped: its pid may already be another process's, which this must not reach.
        process.send(SIGKILL)
    }

    @Test func aProgramThatCannotStartIsAnError() {
        #expect(throws: SpawnError.self) {
            try SpawnedProcess(executable: "/nonexistent/tool", arguments: [], environment: [:], standardOutput: .pipe)
        }
        #expect(throws: SpawnError.self) {
            try SpawnedProcess(executable: "/bin/true", arguments: [], environment: [:], workingDirectory: "/nonexistent")
        }
    }
}
