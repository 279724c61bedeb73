public import Synchronization

/// Values remembered by key, within a bound on what they cost together (a count, or bytes), for
/// answers that are dear to make again and cheap to keep: a route, a probe, a thumbnail's bytes.
///
/// When a new value would pass the bound, remembered ones are let go, whichever the dictionary
/// holds first, until it fits: any value let go is made again the next time it is asked for,
/// so which one goes is not worth the bookkeeping of an order.
///
/// Inlinable, so that each module's use is specialized for its keys and values: unspecialized, a
/// thumbnail's three lookups went through generic witnesses and metadata caches, and serving
/// cached thumbnails was a tenth slower.
public final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The bound on the values' total cost.
    public let capacity: Int
    @usableFromInline let cost: @Sendable (Value) -> Int
    @usableFromInline let state = Mutex(State())

    @usableFromInline struct State {
        @usableFromInline var values: [Key: Value] = [:]
        @usableFromInline var cost = 0

        @usableFromInline init() {}
    }

    /// At most `capacity` values, or values whose `cost` adds up to at most `capacity`.
    public init(capacity: Int, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.capacity = capacity
        self.cost = cost
    }

    @inlinable public subscript(key: Key) -> Value? {
        state.withLock { $0.values[key] }
    }

    /// The number of values remembered now.
    @inlinable public var count: Int {
        state.withLock { $0.values.count }
    }

    /// Remembers `value` for `key`, in place of any value it had. A value costing more than the
    /// whole capacity is not remembered.
    @inlinable public func remember(_ value: Value, for key: Key) {
        let added = cost(value)
        state.withLock { state in
            if let old = state.values.removeValue(forKey: key) { state.cost -= cost(old) }
            guard added <= capacity else { return }
            while state.cost + added > capacity, let first = state.values.first {
                state.values.removeValue(forKey: first.key)
                state.cost -= cost(first.value)
            }
            state.values[key] = value
            state.cost += added
        }
    }

    @inlinable public func forget(_ key: Key) {
        state.withLock { state in
            if let old = state.values.removeValue(forKey: key) { state.cost -= cost(old) }
        }
    }

    /// Lets go of every value whose key `matches`.
    @inlinable public func forget(where matches: (Key) -> Bool) {
        state.withLock { state in
            for (key, value) in state.values where matches(key) {
                state.values.removeValue(forKey: key)
                state.cost -= cost(value)
            }
        }
    }
}
