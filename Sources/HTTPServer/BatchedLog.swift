internal import Dispatch
internal import Glibc
internal import Synchronization

/// Log lines written to a file descriptor together, at most `delay` after the first of them.
///
/// The access log has a line per request: a write(2) each was a fifth of the server's time
/// answering cached thumbnails. Lines keep their order; `flush` writes what waits at once (before
/// the server says it stopped, say).
public final class BatchedLog: Sendable {
    private let descriptor: Int32
    private let delay: DispatchTimeInterval
    private let pending = Mutex<[UInt8]>([])
    /// Held while taking and writing a batch, so that two flushes cannot write out of order.
    private let writing = Mutex<Void>(())
    private let timer = DispatchQueue(label: "BatchedLog")

    /// A batch this large is written by the call that fills it, without waiting for the delay.
    static let batchBytes = 64 * 1024

    public init(descriptor: Int32, delay: Duration = .milliseconds(50)) {
        self.descriptor = descriptor
        let (seconds, attoseconds) = delay.components
        self.delay = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    public func write(_ line: String) {
        let (first, full) = pending.withLock { buffer in
            let first = buffer.isEmpty
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            return (first, buffer.count >= Self.batchBytes)
        }
        if full {
            flush()
        } else if first {
            timer.asyncAfter(deadline: .now() + delay) { [self] in flush() }
        }
    }

    public func flush() {
        writing.withLock { _ in
            let batch = pending.withLock { buffer in
                defer { buffer.removeAll(keepingCapacity: true) }
                return buffer
            }
            batch.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    // A log that cannot be written (a closed pipe, a full disk) drops its lines rather than stop the server.
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}
