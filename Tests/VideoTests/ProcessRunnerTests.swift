import Foundation
import Synchronization
import Testing

@testable import Video

@Suite struct ProcessRunnerTests {
    @Test func versionsAreParsed() async throws {
        let versions = try await Fixture.tools.versions()
        #expect(versions.ffmpeg.first?.isNumber == true)
        #expect(versions.ffprobe.first?.isNumber == true)
        #expect(!versions.ffmpeg.contains(" "))
    }

    @Test func missingToolSaysWhichAndHowToInstall() async {
        let tools = VideoTools(ffmpeg: "/nonexistent/bin/ffmpeg", ffprobe: "/nonexistent/bin/ffprobe")
        let error = await Fixture.error { () async throws(VideoError) in
            _ = try await tools.probe("/tmp/any.mp4", format: .mp4)
        }
        #expect(error?.code == .toolMissing)
        #expect(error?.message.contains("ffprobe") == true)
        #expect(error?.message.contains("make install-deps") == true)
        #expect(error?.message.contains("/nonexistent") == false)
    }

    /// Each child has two pipes; held until the deadline, they piled up on a busy server until
    /// Process.run failed. Other suites run children at the same time, hence the slack.
    @Test func finishedProcessesHoldNoPipes() async throws {
        func pipes() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { name in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"))?.hasPrefix("pipe:") == true
            }
        }
        let runner = ProcessRunner(timeout: .seconds(600))
        let before = try pipes()
        for _ in 0..<50 {
            _ = try await runner.run(.ffprobe, executable: "/bin/true", arguments: [])
        }
        #expect(try pipes() - before < 20)
    }

    /// The child never ends by itself, so returning at all proves the deadline stopped it.
    @Test func deadlineStopsTheProcess() async {
        let runner = ProcessRunner(timeout: .milliseconds(100))
        let code = await Fixture.errorCode { () async throws(VideoError) in
            _ = try await runner.run(.ffmpeg, executable: "/bin/sh", arguments: ["-c", "while :; do sleep 0.05; done"])
        }
        #expect(code == .timeout)
    }

    @Test func processIgnoringSIGTERMIsKilled() async {
        let runner = ProcessRunner(timeout: .milliseconds(100), killGrace: .milliseconds(300))
        let code = await Fixture.errorCode { () async throws(VideoError) in
            _ = try await runner.run(
                .ffmpeg, executable: "/bin/sh",
                arguments: ["-c", "trap '' TERM; while :; do sleep 0.05; done"])
        }
        // The loop ignores SIGTERM and never ends: only the SIGKILL after the grace period stops it.
        #expect(code == .timeout)
    }

    @Test func bothPipesAreDrainedTogether() async throws {
        // More than a pipe holds (64 KiB) on each stream: reading them one after the other would hang.
        let runner = ProcessRunner(timeout: .seconds(300))
        let output = try await runner.run(
            .ffmpeg, executable: "/bin/sh",
            arguments: ["-c", "head -c 300000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero"],
            stdoutLimit: 1000)
        #expect(output.succeeded)
        #expect(output.stdout.count == 1000 && output.stdoutOverflowed)
        #expect(output.stderrTail.utf8.count == 8 * 1024)
    }

    @Test func linesArriveAsTheyAreWritten() async throws {
        let lines = LineLog()
        let runner = ProcessRunner(timeout: .seconds(300))
        let output = try await runner.run(
            .ffmpeg, executable: "/bin/sh", arguments: ["-c", "printf 'a=1\\nb=2\\nlast'; exit 3"],
            onLine: lines.record)
        #expect(output.status == 3 && !output.succeeded)
        #expect(lines.all == ["a=1", "b=2", "last"])
    }

    @Test func cancellationStopsTheProcess() async {
        let runner = ProcessRunner(timeout: .seconds(3600))
        let task = Task {
            await Fixture.errorCode { () async throws(VideoError) in
                _ = try await runner.run(.ffmpeg, executable: "/bin/sh", arguments: ["-c", "while :; do sleep 0.05; done"])
            }
        }
        try? await Task.sleep(for: .milliseconds(100))
        task.cancel()
        // The child never ends by itself and the deadline is an hour away: only cancelling stops it.
        #expect(await task.value == .failed)
    }
}

private final class LineLog: Sendable {
    private let lines = Mutex<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
