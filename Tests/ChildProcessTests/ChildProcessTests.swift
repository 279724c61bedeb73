import ChildProcess
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite struct ChildProcessTests {
    static let shell = "/bin/sh"

    func run(
        _ script: String, timeout: Duration = .seconds(300), killGrace: Duration = .seconds(2), stdoutLimit: Int = 0,
        onLine: (@Sendable (String) -> Void)? = nil
    ) async throws(ChildProcessError) -> ChildProcess.Output {
        var child = ChildProcess(timeout: timeout)
        child.killGrace = killGrace
        return try await child.run(
            executable: Self.shell, arguments: ["-c", script], environment: [:], stdoutLimit: stdoutLimit, onLine: onLine)
    }

    func failure(_ body: () async throws(ChildProcessError) -> Void) async -> ChildProcessError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    /// Each child has two pipes; held until the deadline, they piled up on a busy server until
    /// it ran out of descriptors. Each child names its own pipes (their inodes, which the kernel does not
    /// reuse soon), so the check sees only ours while other suites' children come and go.
    @Test func finishedProcessesHoldNoPipes() async throws {
        func openPipes() throws -> Set<String> {
            let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
            return Set(names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") })
        }
        var ours: Set<String> = []
        for _ in 0..<50 {
            let output = try await run("readlink /proc/$$/fd/1 /proc/$$/fd/2", timeout: .seconds(600), stdoutLimit: 4096)
            let named = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(named.count == 2 && named.allSatisfy { $0.hasPrefix("pipe:") }, "\(named)")
            ours.formUnion(named)
        }
        #expect(try await eventually(seconds: 30) { try openPipes().isDisjoint(with: ours) })
    }

    /// A deadline is a sum of what callers count (seconds of video, say); one beyond what Dispatch
    /// counts is no deadline, not a trap.
    @Test func aDeadlineLongerThanDispatchCountsIsNone() async throws {
        let never = Duration.seconds(Int64.max) * 2
        let output = try await run("echo done", timeout: never, killGrace: never, stdoutLimit: 64)
        #expect(output.succeeded && String(decoding: output.stdout, as: UTF8.self) == "done\n")
    }

    @Test func aMissingProgramIsSaidSo() async {
        let error = await failure { () async throws(ChildProcessError) in
            _ = try await ChildProcess(timeout: .seconds(5)).run(executable: "/nonexistent/tool", arguments: [], environment: [:])
        }
        guard case .missing? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    /// The child never ends by itself, so returning at all proves the deadline stopped it.
    @Test func deadlineStopsTheProcess() async {
        let error = await failure { () async throws(ChildProcessError) in
            _ = try await run("echo started >&2; while :; do sleep 0.05; done", timeout: .milliseconds(300))
        }
        guard case .timedOut(let said)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(said.contains("started"))
    }

    @Test func processIgnoringSIGTERMIsKilled() async {
        let error = await failure { () async throws(ChildProcessError) in
            _ = try await run("trap '' TERM; while :; do sleep 0.05; done", timeout: .milliseconds(100), killGrace: .milliseconds(300))
        }
        // The loop ignores SIGTERM and never ends: only the SIGKILL after the grace period stops it.
        guard case .timedOut? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test func aCrashIsToldFromAnExit() async throws {
        let crashed = try await run("kill -SEGV $$")
        #expect(crashed.crashed && !crashed.succeeded)
        let exited = try await run("exit 4")
        #expect(!exited.crashed && exited.status == 4)
    }

    @Test func bothPipesAreDrainedTogether() async throws {
        // More than a pipe holds (64 KiB) on each stream: reading them one after the other would hang.
        let output = try await run("head -c 300000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero", stdoutLimit: 1000)
        #expect(output.succeeded)
        #expect(output.stdout.count == 1000 && output.stdoutOverflowed)
        #expect(output.stderrTail.utf8.count == 8 * 1024)
    }

    @Test func linesArriveAsTheyAreWritten() async throws {
        let lines = LineLog()
        let output = try await run("printf 'a=1\\nb=2\\nlast'; exit 3", onLine: lines.record)
        #expect(output.status == 3 && !output.succeeded)
        #expect(lines.all == ["a=1", "b=2", "last"])
    }

    @Test func theEnvironmentIsOnlyWhatIsGiven() async throws {
        let output = try await ChildProcess(timeout: .seconds(300)).run(
            executable: Self.shell, arguments: ["-c", "echo \"$HOME|$ONLY\""], environment: ["ONLY": "this"], stdoutLimit: 100)
        #expect(String(decoding: output.stdout, as: UTF8.self) == "|this\n")
    }

    @Test func cancellationStopsTheProcess() async {
        let task = Task {
            await failure { () async throws(ChildProcessError) in _ = try await run("while :; do sleep 0.05; done", timeout: .seconds(3600))
            }
        }
        try? await Task.sleep(for: .milliseconds(100))
        task.cancel()
        // The child never ends by itself and the deadline is an hour away: only cancelling stops it.
        guard case .cancelled? = await task.value else {
            Issue.record("not cancelled")
            return
        }
    }
}

private final class LineLog: Sendable {
    private let lines = Mutex<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
