/// Where a `StreamedBody`'s producer puts its bytes, one write at a time. A write waits while a
/// MiB is queued for the client (`StreamPipe.capacity`), so a body holds about two of its chunks
/// in memory however slow its client.
public struct BodyWriter: Sendable {
    private let sink: @Sendable ([UInt8]) async -> Bool

    init(pipe: StreamPipe) {
        sink = { await pipe.write($0) }
    }

    /// A writer into something else than a connection (`InProcessClient`'s buffer).
    init(_ sink: @escaping @Sendable ([UInt8]) async -> Bool) {
        self.sink = sink
    }

    /// Queues `bytes` to follow those written before; false when they will never be sent (the
    /// client went away, the server is stopping, or they would pass the body's size), after which
    /// the producer should return.
    public func write(_ bytes: [UInt8]) async -> Bool {
        await sink(bytes)
    }
}
