package import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a child process with a deadline, and waits without blocking: ffmpeg and
/// ffprobe for videos, and the image decoder that first opens the files whose decoders may abort.
package struct ChildProcess: Sendable {
    /// How a finished process ended and what it said.
    package struct Output: Sendable {
        package var status: Int32
        /// Killed by a signal it was not sent by us: a crash, which on hostile input means "corrupt".
        package var crashed: Bool
        package var stdout: Data
        package var stdoutOverflowed: Bool
        /// The last few kilobytes of standard error, for an error's detail.
        package var stderrTail: String

        package var succeeded: Bool { status == 0 && !crashed }
    }

    package var timeout: Duration
    /// How long a process gets to exit after SIGTERM before it is killed.
    package var killGrace: Duration = .seconds(2)
    /// The child's nice value (0 to 19): a long job that nobody watches yields the CPU to one
    /// that somebody does.
    package var niceness: Int32 = 0

    package init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Runs `executable` and returns once it has exited and both pipes are drained.
    /// - Parameters:
    ///   - environment: the child's whole environment; it inherits none of ours.
    ///   - stdoutLimit: bytes of standard output to keep; the rest is read and dropped.
    ///   - onLine: sees every line of standard output as it arrives.
    package func run(
        executable: String, arguments: [String], environment: [String: String], stdoutLimit: Int = 0,
        onLine: (@Sendable (String) -> Void)? = nil
    ) async throws(ChildProcessError) -> Output {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw .missing }
        guard !Task.isCancelled else { throw .cancelled }

        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(
                executable: executable, arguments: arguments, environment: environment,
                standardOutput: .pipe, standardError: .pipe, niceness: niceness)
        } catch {
            throw .didNotStart(error.description)
        }
        let stopper = Stopper(process: process, grace: killGrace)
        // Deadlines run on dispatch timers, not Task.sleep, and start the moment the child does:
        // when the cooperative pool is busy (two threads on this machine), a task may resume
        // many seconds late, and a deadline started from it would be late by as much.
        // Once the child has exited, the stopper ignores the timer. Weak: a strong capture would
        // keep the process and its pipes alive until the deadline, long after the child has gone.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak stopper] in
            stopper?.stop(.timedOut)
        }

        let stdoutPipe = process.standardOutput!
        let stderrPipe = process.standardError!
        let stdout = PipeDrain(keepHead: stdoutLimit, onLine: onLine).start(stdoutPipe)
        let stderr = PipeDrain(keepTail: 8 * 1024).start(stderrPipe)
        let end = await withTaskCancellationHandler {
            await process.termination
        } onCancel: {
            stopper.stop(.cancelled)
        }
        let out = await stdout.value
        let err = await stderr.value
        // Closed now rather than whenever the last reference goes: a busy server runs many children.
        try? stdoutPipe.close()
        try? stderrPipe.close()
        let stderrTail = String(decoding: err.tail, as: UTF8.self)

        switch stopper.reason {
        case .timedOut:
            throw .timedOut(stderrTail: stderrTail)
        case .cancelled:
            throw .cancelled
        case nil:
            return Output(
                status: end.status, crashed: end.signalled, stdout: out.head,
                stdoutOverflowed: out.headOverflowed, stderrTail: stderrTail)
        }
    }
}

/// Stops a running process once: SIGTERM so it can let go of its files, then SIGKILL for one
/// that does not listen.
private final class Stopper: Sendable {
    enum Reason: Sendable {
        case timedOut, cancelled
    }

    private enum State {
        case running
        case stopping(Reason)
        case exited
    }

    private let process: SpawnedProcess
    private let grace: Duration
    private let state = Mutex(State.running)

    init(process: SpawnedProcess, grace: Duration) {
        self.process = process
        self.grace = grace
    }

    /// Why the process was stopped, or nil when it ended by itself.
    var reason: Reason? {
        state.withLock { state in
            if case .stopping(let reason) = state { return reason }
            return nil
        }
    }

    func stop(_ reason: Reason) {
        let stopping = state.withLock { state in
            guard case .running = state else { return false }
            // Reaped already, though the task waiting for it has not run yet (the cooperative
            // pool can be busy for minutes under load): a job that finished is not a timeout.
            guard process.isRunning else {
                state = .exited
                return false
            }
            state = .stopping(reason)
            return true
        }
        guard stopping else { return }
        process.send(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + grace.dispatchInterval) { [process] in
            process.send(SIGKILL)
        }
    }
}

extension Duration {
    /// As Dispatch counts, up to its longest (about 292 years): `components` itself traps on a
    /// duration of more seconds than an Int64 holds.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = min(self, .seconds(Int.max / 1_000_000_000 - 1)).components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}

/// Why a child process gave no output of its own.
package enum ChildProcessError: Error, Sendable {
    /// No executable file at the path.
    case missing
    case didNotStart(String)
    /// The deadline passed; it was stopped. What it had written to standard error.
    case timedOut(stderrTail: String)
    case cancelled
}
