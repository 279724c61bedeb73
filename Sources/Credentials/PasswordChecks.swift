internal import Executors
internal import Synchronization

/// Checks passwords `width` at a time (scrypt takes 32 MiB and a tenth of a second each) on
/// threads of their own: never on Swift's cooperative pool or the server's threads, and never
/// more threads or memory than `width` checks need.
///
/// A check waits for a place rather than being refused: refusing when the places are taken would
/// turn the owner away whenever guessers keep them busy. The waiting go least suspect first
/// (fewest failures counted against their network), then in order of arrival, so a client whose
/// network nobody has failed from is next whatever else waits. What waits is bounded without a
/// limit of its own: each waiting check holds its request's connection, which the server's
/// connection limits bound, and a network's tries past its lock-out limit are refused before
/// they get here.
public final class PasswordChecks: Sendable {
    private let threads: BlockingExecutor<Void>
    private let order: Mutex<CheckOrder>

    public init(width: Int = 2) {
        order = Mutex(CheckOrder(width: width))
        threads = BlockingExecutor(name: "passwords", threads: max(1, width))
    }

    /// Whether `password` is the one `hash` was made from, once a place is free.
    public func verify(_ password: String, against hash: PasswordHash, suspicion: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            start(order.withLock { $0.add(suspicion: suspicion) { continuation.resume(returning: hash.verifies(password)) } })
        }
    }

    private func start(_ job: CheckOrder.Job?) {
        guard let job else { return }
        threads.submit { [self] _ in
            job()
            start(order.withLock { $0.finished() })
        }
    }
}

/// Which waiting check gets the next free place: the least suspect, then the first to arrive.
struct CheckOrder: Sendable {
    typealias Job = @Sendable () -> Void
    let width: Int
    private var running = 0
    private var arrivals = 0
    private var waiting: [(suspicion: Int, arrival: Int, job: Job)] = []

    init(width: Int) {
        self.width = max(1, width)
    }

    /// Queues a job; returns the job to start now when a place is free.
    mutating func add(suspicion: Int, _ job: @escaping Job) -> Job? {
        waiting.append((suspicion, arrivals, job))
        arrivals += 1
        return next()
    }

    /// A started job has ended; returns the one to start in its place, if any waits.
    mutating func finished() -> Job? {
        running -= 1
        return next()
    }

    private mutating func next() -> Job? {
        guard running < width,
            let best = waiting.indices.min(by: {
                (waiting[$0].suspicion, waiting[$0].arrival) < (waiting[$1].suspicion, waiting[$1].arrival)
            })
        else { return nil }
        running += 1
        return waiting.remove(at: best).job
    }
}
