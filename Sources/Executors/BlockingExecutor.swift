import Foundation
import Synchronization

/// Threads of our own for work that blocks (SQLite, libvips, fsync, scrypt, waiting for a child
/// process): never Swift's cooperative pool, whose few threads every task shares, nor
/// libmicrohttpd's poll threads, which serve every connection. At most a fixed number of threads
/// take jobs in the order they came; a caller awaits its job's result without holding a thread.
/// A thread starts only when a job finds no idle one, so an executor that is little used (a
/// database's third reader, a test's library) costs no thread.
///
/// Each thread may own a context that no other thread ever touches (a database connection): a
/// job gets the context of the thread it runs on. With one thread, the executor is a serial
/// executor for its context, which is how a connection stays confined to one thread.
public final class BlockingExecutor<Context>: Sendable {
    private let queue: JobQueue<Context>

    /// At most `threads` threads; each makes its context when it starts (`makeContext` gets its
    /// number) and keeps it for its whole life.
    public init(
        name: String, threads: Int, stackSize: Int = 4 << 20, makeContext: @escaping @Sendable (Int) -> Context
    ) {
        let count = max(1, threads)
        let starters = (0..<count).map { index in
            let threadName = count == 1 ? name : "\(name) \(index + 1)"
            return { @Sendable (queue: JobQueue<Context>) in
                let thread = Thread {
                    Thread.current.name = threadName
                    nameForTheKernel(threadName)
                    queue.serve(makeContext(index))
                }
                thread.stackSize = stackSize
                thread.start()
            }
        }
        queue = JobQueue(starters: starters)
    }

    /// The threads end once the jobs already queued are done.
    deinit { queue.stop() }

    /// Runs `body` on one of the threads, with that thread's context, and returns its result.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable (inout Context) throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.add { context in
                let result = Result { () throws(E) -> T in try body(&context) }
                return { continuation.resume(returning: result) }
            }
        }
        return try result.get()
    }

    /// Runs `body` as `run` does, unless the calling task is cancelled before a thread takes the
    /// job (its client has gone): then no thread does the work, and the caller gets `cancelled()`.
    /// For work done only for that caller, such as a render nobody will be sent.
    public func run<T: Sendable, E: Error>(
        unlessCancelledFirst cancelled: @escaping @Sendable () -> E, _ body: @escaping @Sendable (inout Context) throws(E) -> T
    ) async throws(E) -> T {
        let gone = Atomic<Bool>(false)
        let result: Result<T, E> = await withTaskCancellationHandler {
            do throws(E) {
                return .success(
                    try await run { (context: inout Context) throws(E) -> T in
                        if gone.load(ordering: .acquiring) { throw cancelled() }
                        return try body(&context)
                    })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            gone.store(true, ordering: .releasing)
        }
        return try result.get()
    }

    /// Queues `job` without waiting for it: for callers that choose the order of their own jobs.
    public func submit(_ job: @escaping @Sendable (inout Context) -> Void) {
        queue.add { context in
            job(&context)
            return nil
        }
    }
}

extension BlockingExecutor where Context == Void {
    /// At most `threads` threads, without contexts.
    public convenience init(name: String, threads: Int, stackSize: Int = 4 << 20) {
        self.init(name: name, threads: threads, stackSize: stackSize) { _ in () }
    }

    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        try await run { (_: inout Void) throws(E) -> T in try body() }
    }

    public func run<T: Sendable, E: Error>(
        unlessCancelledFirst cancelled: @escaping @Sendable () -> E, _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        try await run(unlessCancelledFirst: cancelled) { (_: inout Void) throws(E) -> T in try body() }
    }
}

/// Foundation hands a thread's name to the kernel only once the starting thread has recorded the
/// new one's pthread, which races with the new thread's first instructions; and glibc's
/// pthread_setname_np is not visible to Swift. The kernel's own file for the calling thread is.
private func nameForTheKernel(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY)
    guard file >= 0 else { return }
    // The kernel keeps the first 15 bytes; a name is a diagnostic, so a failed write is no error.
    _ = name.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
    close(file)
}

/// The jobs waiting and the threads' signal. The threads hold this, not the executor, so that
/// dropping the executor ends them.
private final class JobQueue<Context>: @unchecked Sendable {
    /// A job returns what tells its caller it is done, which the thread calls once it counts as
    /// free again: a caller that queues its next job at once then finds that thread, not a new one.
    typealias Job = @Sendable (inout Context) -> (@Sendable () -> Void)?
    typealias Starter = @Sendable (JobQueue<Context>) -> Void
    // NSCondition, not Mutex: idle threads sleep on it until a job comes.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var stopped = false
    /// Threads not started yet, each with its context.
    private var starters: [Starter]
    /// Started threads that are not running a job.
    private var free = 0

    init(starters: [Starter]) {
        self.starters = starters.reversed()
    }

    func add(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        let start = jobs.count - head > free ? starters.popLast() : nil
        condition.signal()
        condition.unlock()
        start?(self)
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// A thread's life: the next job, until stopped and drained.
    func serve(_ context: Context) {
        var context = context
        markFree()
        while let job = next() {
            let done = job(&context)
            markFree()
            done?()
        }
    }

    private func markFree() {
        condition.lock()
        free += 1
        condition.unlock()
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopped { condition.wait() }
        free -= 1
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        // The taken jobs are dropped now and then, not one by one from the front (which would
        // move every waiting job each time).
        if head > 64 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
