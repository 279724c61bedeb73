/// A response body made while it is sent: exactly `size` bytes, which `produce` hands to its
/// `BodyWriter` in order. The size is known before the first byte, so the response carries a
/// `Content-Length` and a client can tell a body cut short from a whole one.
///
/// The producer runs as a task of its own once the response is queued (never for HEAD), and
/// counts as a request in flight (a graceful stop waits for it) until it returns. Its blocking
/// work (reading files, hashing) belongs on threads of the caller's, such as a
/// `BlockingExecutor`, never on the task's. Whatever goes wrong ends the response by closing its
/// connection after the bytes already sent: the producer throws, writes more than `size`, or
/// returns before writing all of it.
public struct StreamedBody: Sendable {
    public typealias Producer = @Sendable (BodyWriter) async throws -> Void

    public let size: Int
    let produce: Producer

    public init(size: Int, _ produce: @escaping Producer) {
        precondition(size >= 0, "a body has no negative size")
        self.size = size
        self.produce = produce
    }
}
