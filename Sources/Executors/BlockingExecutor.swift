import Foundation

/// Threads of our own for work that blocks (SQLite, libvips, fsync, scrypt, waiting for a child
/// process): never Swift's cooperative pool, whose few threads every task shares, nor
/// libmicrohttpd's poll threads, which serve every connection. A fixed number of threads take
/// jobs in the order they came; a caller awaits its job's result without holding a thread.
///
/// Each thread may own a context that no other thread ever touches (a database connection): a
/// job gets the context of the thread it runs on. With one thread, the executor is a serial
/// executor for its context, which is how a connection stays confined to one thread.
public final class BlockingExecutor<Context>: Sendable {
    private let queue: JobQueue<Context>

    /// One thread per context, each keeping its context for its whole life.
    public init(name: String, contexts: [Context], stackSize: Int = 4 << 20) {
        precondition(!contexts.isEmpty, "an executor needs at least one thread")
        queue = JobQueue()
        for (index, context) in contexts.enumerated() {
            let owned = Owned(context)
            let threadName = contexts.count == 1 ? name : "\(name) \(index + 1)"
            let thread = Thread { [queue] in
                // Named from inside: on Linux a name given before the start is not the kernel's.
                Thread.current.name = threadName
                queue.serve(owned.take())
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }

    /// The threads end once the jobs already queued are done.
    deinit { queue.stop() }

    /// Runs `body` on one of the threads, with that thread's context, and returns its result.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable (inout Context) throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.add { context in continuation.resume(returning: Result { () throws(E) -> T in try body(&context) }) }
        }
        return try result.get()
    }

    /// Queues `job` without waiting for it: for callers that choose the order of their own jobs.
    public func submit(_ job: @escaping @Sendable (inout Context) -> Void) {
        queue.add(job)
    }
}

extension BlockingExecutor where Context == Void {
    /// `threads` threads without contexts.
    public convenience init(name: String, threads: Int, stackSize: Int = 4 << 20) {
        self.init(name: name, contexts: Array(repeating: (), count: max(1, threads)), stackSize: stackSize)
    }

    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        try await run { (_: inout Void) throws(E) -> T in try body() }
    }
}

/// The jobs waiting and the threads' signal. The threads hold this, not the executor, so that
/// dropping the executor ends them.
private final class JobQueue<Context>: @unchecked Sendable {
    typealias Job = @Sendable (inout Context) -> Void
    // NSCondition, not Mutex: idle threads sleep on it until a job comes.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var stopped = false

    func add(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
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
        while let job = next() { job(&context) }
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopped { condition.wait() }
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

/// Hands a context to the thread that will own it; nothing else touches it after.
private final class Owned<Context>: @unchecked Sendable {
    private var context: Context?

    init(_ context: Context) { self.context = context }

    func take() -> Context {
        guard let context else { preconditionFailure("a thread's context is taken once") }
        self.context = nil
        return context
    }
}
