import Synchronization

/// A value delivered once, from any thread, to one async waiter, whichever comes first.
///
/// It bridges callbacks that arrive on threads of their own (blocking pipe readers) into async code without parking a cooperative thread.
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiter: CheckedContinuation<Value, Never>?
    }

    private let state = Mutex(State())

    func fulfill(_ value: Value) {
        let waiter = state.withLock { state in
            guard state.value == nil else { return CheckedContinuation<Value, Never>?.none }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if state.value == nil { state.waiter = continuation }
                    return state.value
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
