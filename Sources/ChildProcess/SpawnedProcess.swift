import CSpawnShims
package import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn`, and how it ended.
///
/// Not Foundation's `Process`: its `run()` reads past the end of a buffer when it looks for the
/// highest open descriptor of a process holding more than ~1,350 (swift-corelibs-foundation
/// #5472, found by AddressSanitizer here, and a crash of the test suite), which a busy server does.
/// Here the child closes every descriptor above the three it is given, and starts with no signal
/// blocked and none ignored, whatever the thread that starts it blocks (the cooperative pool's
/// threads block nearly all, and a child that inherited that mask would ignore SIGTERM).
package final class SpawnedProcess: Sendable {
    /// Where the child's standard input comes from.
    package enum Input: Sendable {
        case null
        /// Opened by the child as it starts: the file may be removed once the initialiser returns.
        case file(String)
    }

    /// Where one of the child's outputs goes.
    package enum Output: Sendable {
        case null
        /// A pipe whose reading end is this object's `standardOutput` or `standardError`.
        case pipe
        /// Ours: the child writes where this process does.
        case inherit
        /// Standard error only: into standard output, wherever that goes.
        case standardOutput
    }

    /// How the child ended.
    package struct Termination: Sendable, Equatable {
        /// Its exit status, or the number of the signal that ended it.
        package var status: Int32
        package var signalled: Bool

        package init(status: Int32, signalled: Bool) {
            self.status = status
            self.signalled = signalled
        }

        init(waitStatus: Int32) {
            // WIFEXITED and its kin are macros Swift does not see; this is their definition in glibc.
            let signal = waitStatus & 0x7f
            self.init(status: signal != 0 ? signal : (waitStatus >> 8) & 0xff, signalled: signal != 0)
        }
    }

    package let pid: Int32
    /// The reading end of standard output's pipe, when it was asked for.
    package let standardOutput: FileHandle?
    /// The reading end of standard error's pipe, when it was asked for.
    package let standardError: FileHandle?

    /// Set once the child has been reaped. Reaping happens under this lock, and signals are sent
    /// under it only while this is nil: a signal never reaches another process given the same pid.
    private let ended = Mutex<Termination?>(nil)
    private let reaped = DispatchGroup()

    /// Starts `executable` (a path; no search of PATH) with exactly `environment`.
    /// - Parameter niceness: the child's nice value (0 to 19), set before anything can reap it.
    package init(
        executable: String, arguments: [String], environment: [String: String], workingDirectory: String? = nil,
        standardInput: Input = .null, standardOutput: Output = .inherit, standardError: Output = .inherit,
        niceness: Int32 = 0
    ) throws(SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipes = OpenPipes()
        defer { pipes.closeWritingEnds() }
        do throws(SpawnError) {
            switch standardInput {
            case .null: try check("open /dev/null", posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
            case .file(let path): try check("open \(path)", posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0))
            }
            let outputReader = try Self.direct(standardOutput, to: 1, &actions, &pipes)
            let errorReader = try Self.direct(standardError, to: 2, &actions, &pipes)
            if let workingDirectory { try check("chdir \(workingDirectory)", cr_spawn_add_chdir(&actions, workingDirectory)) }
            try check("closefrom", cr_spawn_add_closefrom(&actions, 3))

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var nothing = sigset_t()
            sigemptyset(&nothing)
            var everything = sigset_t()
            sigfillset(&everything)
            try check("signal mask", posix_spawnattr_setsigmask(&attributes, &nothing))
            try check("signal defaults", posix_spawnattr_setsigdefault(&attributes, &everything))
            try check("flags", posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))

            var pid: Int32 = 0
            let argv = cStrings([executable] + arguments)
            let envp = cStrings(environment.map { "\($0.key)=\($0.value)" })
            defer { for string in argv + envp { free(string) } }
            try check("spawn \(executable)", posix_spawn(&pid, executable, &actions, &attributes, argv, envp))
            self.pid = pid
            self.standardOutput = outputReader.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
            self.standardError = errorReader.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        } catch {
            pipes.closeReadingEnds()
            throw error
        }
        if niceness > 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), niceness) }
        startReaper()
    }

    /// Sends `signal`, unless the child has already been reaped.
    package func send(_ signal: Int32) {
        ended.withLock { ended in
            if ended == nil { kill(pid, signal) }
        }
    }

    package var isRunning: Bool { ended.withLock { $0 == nil } }

    /// How it ended, once it has; waits without holding a thread.
    package var termination: Termination {
        get async {
            await withCheckedContinuation { continuation in
                reaped.notify(queue: .global()) { continuation.resume(returning: self.ended.withLock { $0! }) }
            }
        }
    }

    /// How it ended, blocking the calling thread until it has: only for threads of one's own.
    package func waitUntilExit() -> Termination {
        reaped.wait()
        return ended.withLock { $0! }
    }

    /// One thread a child, blocked in `waitid` until it exits. It waits without reaping first, so
    /// the child's pid stays its own until `ended` is set under the same lock as the reaping.
    private func startReaper() {
        reaped.enter()
        let thread = Thread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
            ended.withLock { ended in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                ended = Termination(waitStatus: status)
            }
            reaped.leave()
        }
        thread.name = "child-process-reaper"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Adds the file action that gives the child `output` as descriptor `target`; the reading
    /// end of its pipe, when it asks for one.
    private static func direct(
        _ output: Output, to target: Int32, _ actions: inout posix_spawn_file_actions_t, _ pipes: inout OpenPipes
    ) throws(SpawnError) -> Int32? {
        switch output {
        case .inherit:
            return nil
        case .null:
            try check("open /dev/null", posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0))
            return nil
        case .standardOutput:
            try check("dup2", posix_spawn_file_actions_adddup2(&actions, 1, target))
            return nil
        case .pipe:
            let (reading, writing) = try pipes.open()
            try check("dup2", posix_spawn_file_actions_adddup2(&actions, writing, target))
            return reading
        }
    }
}

/// Why a program could not be started: the call that failed and its error number.
package struct SpawnError: Error, Sendable, CustomStringConvertible {
    package var call: String
    package var code: Int32

    package var description: String { "\(call): \(String(cString: strerror(code)))" }
}

/// posix_spawn's calls say their error as the result, 0 being success.
private func check(_ call: String, _ result: Int32) throws(SpawnError) {
    guard result == 0 else { throw SpawnError(call: call, code: result) }
}

/// The pipes made for one child: the writing ends are the child's alone once it has started,
/// the reading ends ours unless the start failed.
private struct OpenPipes {
    private var reading: [Int32] = []
    private var writing: [Int32] = []

    /// Both ends close on exec, so no other child started meanwhile by another thread holds them
    /// (the child's own `dup2` copies do not).
    mutating func open() throws(SpawnError) -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [0, 0]
        guard cr_pipe_cloexec(&ends) == 0 else { throw SpawnError(call: "pipe", code: errno) }
        reading.append(ends[0])
        writing.append(ends[1])
        return (ends[0], ends[1])
    }

    mutating func closeWritingEnds() {
        for end in writing { close(end) }
        writing = []
    }

    mutating func closeReadingEnds() {
        for end in reading { close(end) }
        reading = []
    }
}

/// A NULL-terminated array of C strings, each to be freed.
private func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
    strings.map { strdup($0) } + [nil]
}
