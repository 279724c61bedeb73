import Dispatch

/// Runs blocking work (libvips decodes, file copies) on dispatch threads, never on Swift's
/// cooperative pool, at most `width` jobs at a time.
struct WorkQueue: Sendable {
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore

    init(label: String, width: Int) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
        slots = DispatchSemaphore(value: max(1, width))
    }

    func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async { [slots] in
                slots.wait()
                defer { slots.signal() }
                continuation.resume(returning: Result { () throws(E) -> T in try body() })
            }
        }
        return try result.get()
    }
}
