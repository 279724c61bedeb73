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

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let exited = OneShot<(status: Int32, signalled: Bool)>()
        process.terminationHandler = { process in
            exited.fulfill((process.terminationStatus, process.terminationReason == .uncaughtSignal))
        }
        let stopper = Stopper(process: process, grace: killGrace)
        // Deadlines run on dispatch timers, not Task.sleep, and start the moment the child does:
        // when the cooperative pool is busy (two threads on this machine), a task may resume
        // many seconds late, and a deadline started from it would be late by as much.
        // Once the child has exited, the stopper ignores the timer.
        do {
            // Weak: a strong capture would keep the process and its pipes alive until the
            // deadline, long after the child has gone.
            try await Self.launch(process) { [niceness] in
                if niceness > 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process.processIdentifier), niceness) }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak stopper] in
                    stopper?.stop(.timedOut)
                }
            }
        } catch {
            throw .didNotStart(String(describing: error))
        }

        let stdout = PipeDrain(keepHead: stdoutLimit, onLine: onLine).start(stdoutPipe.fileHandleForReading)
        let stderr = PipeDrain(keepTail: 8 * 1024).start(stderrPipe.fileHandleForReading)
        let end = await withTaskCancellationHandler {
            await exited.value
        } onCancel: {
            stopper.stop(.cancelled)
        }
        stopper.markExited()
        let out = await stdout.value
        let err = await stderr.value
        // Closed now rather than whenever Foundation lets go of the Pipe: a busy server runs
        // many children, and Process.run fails once the process holds ~1350 descriptors.
        try? stdoutPipe.fileHandleForReading.close()
        try? stderrPipe.fileHandleForReading.close()
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

    /// A child inherits the signal mask of the thread that starts it, and the threads of the
    /// cooperative pool block nearly every signal: a child started from one ignores SIGTERM.
    /// So the child is started from a short-lived thread with nothing blocked.
    private static func launch(_ process: Process, onStarted: @escaping @Sendable () -> Void) async throws {
        let launched = OneShot<Result<Void, any Error>>()
        let thread = Thread {
            var nothing = sigset_t()
            sigemptyset(&nothing)
            pthread_sigmask(SIG_SETMASK, &nothing, nil)
            let result = Result { try process.run() }
            if case .success = result { onStarted() }
            launched.fulfill(result)
        }
        thread.name = "child-process-launcher"
        thread.start()
        try await launched.value.get()
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

    private let process: Process
    private let grace: Duration
    private let state = Mutex(State.running)

    init(process: Process, grace: Duration) {
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

    /// After this, a deadline that fires late no longer turns a finished job into a timeout.
    func markExited() {
        state.withLock { state in
            if case .running = state { state = .exited }
        }
    }

    func stop(_ reason: Reason) {
        let stopping = state.withLock { state in
            guard case .running = state else { return false }
            state = .stopping(reason)
            return true
        }
        guard stopping else { return }
        process.terminate()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + grace.dispatchInterval) { [process] in
            if process.isRunning { kill(pid, SIGKILL) }
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
