internal import CMicroHTTPD
internal import Synchronization

/// One streamed body on its way from its producer's task to libmicrohttpd, which pulls it through
/// a content reader on its poll thread. The reader only copies bytes that are ready; when none
/// are, it suspends the connection, and the write that brings the next bytes resumes it (what
/// libmicrohttpd 0.9.75 asks of a reader that returns 0 in internal polling mode, where a bare 0
/// would be asked again at once, in a busy loop).
///
/// `suspended` says whether the connection is suspended by this pipe and not yet resumed; it
/// changes only under the lock, together with the call that makes it true, so the pipe never
/// resumes a connection it did not suspend nor suspends one twice (both corrupt MHD's lists).
final class StreamPipe: Sendable {
    /// Bytes that may wait for the client before a write waits: one of a producer's usual 1 MiB
    /// chunks queued, the next waiting with its writer, so two in all, however slow the client.
    static let capacity = 1 << 20
    /// What libmicrohttpd asks of the reader at most at once, into a buffer of its own of that size.
    static let blockSize = 64 << 10

    let size: Int
    private let produce: StreamedBody.Producer
    private let state = Mutex(State())

    private enum End: Equatable {
        /// The producer returned with all `size` bytes written; what is queued still goes out.
        case produced
        /// The producer failed: the connection closes after what was sent.
        case failed
        /// The client is gone, or the server stops.
        case closed
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// How much of the first chunk the reader has taken.
        var offset = 0
        var buffered = 0
        var written = 0
        var sent = 0
        var end: End?
        /// Why the producer failed, for the log; nil when it did not.
        var failure: String?
        /// Set when the producer starts; nil again once libmicrohttpd is done with the connection.
        var connection: Connection?
        var suspended = false
        /// A write that found no room, with its bytes, which the reader queues once there is room.
        var waiting: (bytes: [UInt8], writer: CheckedContinuation<Bool, Never>)?
        var task: Task<Void, Never>?

        mutating func enqueue(_ bytes: [UInt8]) {
            chunks.append(bytes)
            buffered += bytes.count
            written += bytes.count
            resume()
        }

        /// Lets libmicrohttpd serve the connection again, if this pipe suspended it.
        mutating func resume() {
            guard suspended, let connection else { return }
            suspended = false
            connection.resume()
        }

        mutating func fail(_ reason: String) {
            end = .failed
            failure = reason
            resume()
        }
    }

    init(_ body: StreamedBody) {
        size = body.size
        produce = body.produce
    }

    /// The bytes handed to libmicrohttpd so far, for the access log.
    var sent: Int { state.withLock { $0.sent } }

    /// Runs the producer for the response queued on `connection`; `done` once it returns, and
    /// `report` first if it failed.
    func start(on connection: Connection, report: @escaping @Sendable (String) -> Void, done: @escaping @Sendable () -> Void) {
        let writer = BodyWriter(pipe: self)
        state.withLock { state in
            state.connection = connection
            state.task = Task(priority: .high) { [self, produce] in
                var thrown: (any Error)?
                do {
                    try await produce(writer)
                } catch {
                    thrown = error
                }
                if let failure = finish(thrown) { report(failure) }
                done()
            }
        }
    }

    /// Why the body failed, if it did because of its producer (not when it was closed first).
    private func finish(_ thrown: (any Error)?) -> String? {
        state.withLock { state in
            state.task = nil
            guard state.end == nil else { return state.failure }
            if let thrown {
                state.fail("its producer failed: \(thrown)")
            } else if state.written < size {
                state.fail("its producer wrote \(state.written) of its \(size) bytes")
            } else {
                state.end = .produced
            }
            return state.failure
        }
    }

    func write(_ bytes: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            let accepted: Bool? = state.withLock { state in
                guard state.end == nil else { return false }
                guard bytes.count <= size - state.written else {
                    state.fail("its producer wrote past its \(size) bytes")
                    return false
                }
                // A chunk larger than the capacity still goes, alone.
                if state.buffered > 0, state.buffered + bytes.count > Self.capacity {
                    precondition(state.waiting == nil, "a producer writes one chunk at a time")
                    state.waiting = (bytes, continuation)
                    return nil
                }
                if !bytes.isEmpty { state.enqueue(bytes) }
                return true
            }
            if let accepted { continuation.resume(returning: accepted) }
        }
    }

    /// libmicrohttpd's content reader, on its poll thread: copies what is ready into `buffer`, or
    /// suspends the connection until there is some (0), or ends the response.
    func read(into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        let (count, writer) = state.withLock { state -> (Int, CheckedContinuation<Bool, Never>?) in
            guard state.end == nil || state.end == .produced else { return (Self.endWithError, nil) }
            guard let chunk = state.chunks.first else {
                // MHD asks only for bytes before `size`, which a producer that ended has all written.
                guard state.end == nil, let connection = state.connection else { return (Self.endWithError, nil) }
                if !state.suspended {
                    connection.suspend()
                    state.suspended = true
                }
                return (0, nil)
            }
            let count = min(max, chunk.count - state.offset)
            chunk.withUnsafeBytes { bytes in buffer.copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count) }
            state.offset += count
            state.buffered -= count
            state.sent += count
            if state.offset == chunk.count {
                state.chunks.removeFirst()
                state.offset = 0
            }
            guard let waiting = state.waiting, state.buffered == 0 || state.buffered + waiting.bytes.count <= Self.capacity else {
                return (count, nil)
            }
            state.waiting = nil
            state.enqueue(waiting.bytes)
            return (count, waiting.writer)
        }
        writer?.resume(returning: true)
        return count
    }

    /// Ends the body where it is: the client is gone (`connectionGone`: libmicrohttpd is done with
    /// the connection) or the server stops, which needs the connection resumed so that
    /// libmicrohttpd can close it. A waiting write returns false, and the producer is cancelled.
    func close(connectionGone: Bool = false) {
        let (writer, task) = state.withLock { state in
            if connectionGone {
                state.connection = nil
                state.suspended = false
            }
            if state.end != .failed { state.end = .closed }
            state.resume()
            state.chunks = []
            state.buffered = 0
            defer { state.waiting = nil }
            return (state.waiting?.writer, state.task)
        }
        writer?.resume(returning: false)
        task?.cancel()
    }

    /// A libmicrohttpd response that reads this pipe, which it keeps (retained) until it frees
    /// the response; nil when libmicrohttpd cannot make one.
    func makeResponse() -> OpaquePointer? {
        let pipe = Unmanaged.passRetained(self)
        let response = MHD_create_response_from_callback(
            UInt64(size), Self.blockSize,
            { cls, _, buffer, max in
                guard let cls, let buffer else { return StreamPipe.endWithError }
                return Unmanaged<StreamPipe>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
            }, pipe.toOpaque(),
            { cls in
                guard let cls else { return }
                Unmanaged<StreamPipe>.fromOpaque(cls).takeRetainedValue().close(connectionGone: true)
            })
        if response == nil { pipe.release() }
        return response
    }

    /// MHD_CONTENT_READER_END_WITH_ERROR: libmicrohttpd closes the connection at once.
    private static let endWithError = -2
}
