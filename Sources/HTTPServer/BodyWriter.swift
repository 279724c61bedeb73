internal import Dispatch
internal import Executors
internal import Glibc
internal import Synchronization

/// A request body on its way to its file. libmicrohttpd's threads, which serve every
/// connection, only hand each piece over in memory; the server's disk threads create the file
/// and write the pieces in order. A client faster than the disk is held back: once more than
/// `backlog` bytes wait, the thread that took the piece waits until the writes are down to a
/// quarter of it. That thread serves other connections too, so they wait as well, but only
/// while a disk is slower than a network. Suspending just the one connection would be kinder;
/// libmicrohttpd 0.9.75 then, under load, at times never read the connection's next request.
final class BodyWriter: Sendable {
    /// What became of a piece handed over.
    enum Taken {
        case queued
        /// Writing failed before; the body is lost and the request ends with this.
        case failed(BodyFile.Failure)
    }

    private struct State {
        var file: BodyFile?
        var waiting: [[UInt8]] = []
        var waitingBytes = 0
        var received = 0
        /// A disk job is on its way or running; only one ever is, so the pieces stay in order.
        var writing = false
        var failure: BodyFile.Failure?
        var discarded = false
        /// Signalled once the writes are down to the low-water mark (or failed).
        var caughtUp: DispatchSemaphore?
        var finishing: CheckedContinuation<Result<RequestBody, BodyFile.Failure>, Never>?
    }

    private let directory: String
    private let disk: BlockingExecutor<Void>
    private let backlog: Int
    private let state = Mutex(State())

    init(directory: String, disk: BlockingExecutor<Void>, backlog: Int) {
        self.directory = directory
        self.disk = disk
        self.backlog = backlog
    }

    private var lowWater: Int { backlog / 4 }

    /// Bytes handed over so far, written or not.
    var received: Int { state.withLock { $0.received } }

    /// Takes a copy of a piece (libmicrohttpd's buffer is reused once the call returns), and
    /// waits for the disk when too much is waiting already.
    func take(_ bytes: UnsafeRawBufferPointer) -> Taken {
        var taken = Taken.queued
        var caughtUp: DispatchSemaphore?
        startWriting { state in
            if let failure = state.failure {
                taken = .failed(failure)
                return
            }
            state.waiting.append([UInt8](bytes))
            state.waitingBytes += bytes.count
            state.received += bytes.count
            if state.waitingBytes > backlog {
                caughtUp = DispatchSemaphore(value: 0)
                state.caughtUp = caughtUp
            }
        }
        guard let caughtUp else { return taken }
        caughtUp.wait()
        return state.withLock { $0.failure }.map { .failed($0) } ?? .queued
    }

    /// Waits for every piece to be written and closes the file: the body the handler gets.
    func finish() async throws(BodyFile.Failure) -> RequestBody {
        try await withCheckedContinuation { continuation in startWriting { $0.finishing = continuation } }.get()
    }

    /// The request is over: the file goes, once no write is using it (whether or not a handler
    /// has moved it away since).
    func discard() {
        startWriting { $0.discarded = true }
    }

    /// A disk job: writes what waits until nothing does, then does what was asked meanwhile
    /// (close the file for the handler, or delete it) and hands the file back.
    private func write() {
        var file = state.withLock { $0.file.take() }
        while true {
            let pieces: [[UInt8]] = state.withLock { state in
                defer { state.waiting.removeAll() }
                guard state.failure == nil, !state.discarded else {
                    state.waitingBytes = 0
                    return []
                }
                return state.waiting
            }
            if !pieces.isEmpty {
                write(pieces, to: &file)
                continue
            }
            let (finishing, discarded) = state.withLock { ($0.finishing.take(), $0.discarded) }
            if discarded {
                file?.discard()
                finishing?.resume(returning: .failure(BodyFile.Failure(code: ECANCELED)))
            } else if let finishing {
                finishing.resume(returning: finished(&file))
            }
            // A request asked for more while this job looked away: it is this job's to do.
            let done = state.withLock { state in
                let more =
                    (!state.waiting.isEmpty && state.failure == nil && !state.discarded) || state.finishing != nil
                    || (state.discarded && !discarded)
                if !more {
                    state.file = file
                    state.writing = false
                }
                return !more
            }
            if done { return }
        }
    }

    private func write(_ pieces: [[UInt8]], to file: inout BodyFile?) {
        var failure: BodyFile.Failure?
        do throws(BodyFile.Failure) {
            if file == nil { file = try BodyFile.create(in: directory) }
            for piece in pieces {
                try file?.append(piece)
            }
        } catch {
            failure = error
        }
        state.withLock { state in
            state.waitingBytes -= pieces.reduce(0) { $0 + $1.count }
            if let failure { state.failure = failure }
            if failure != nil || state.waitingBytes <= lowWater { state.caughtUp.take()?.signal() }
        }
    }

    private func finished(_ file: inout BodyFile?) -> Result<RequestBody, BodyFile.Failure> {
        if let failure = state.withLock({ $0.failure }) { return .failure(failure) }
        do throws(BodyFile.Failure) {
            // A body of no bytes still gets its (empty) file.
            if file == nil { file = try BodyFile.create(in: directory) }
        } catch {
            return .failure(error)
        }
        file?.close()
        return file.map { .success(RequestBody(path: $0.path, size: $0.size)) } ?? .failure(BodyFile.Failure(code: EIO))
    }

    private func startWriting(_ ask: (inout State) -> Void) {
        let starts = state.withLock { state in
            ask(&state)
            let starts = !state.writing
            state.writing = true
            return starts
        }
        if starts { disk.submit { [self] _ in write() } }
    }
}
