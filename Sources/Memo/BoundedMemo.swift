public import Synchronization

/// Values remembered by key, within a bound on what they cost together (a count, or bytes), for
/// answers that are dear to make again and cheap to keep: a route, a probe, a thumbnail's bytes.
///
/// When a new value would pass the bound, the values remembered longest ago are let go until it
/// fits: any value let go is made again the next time it is asked for. The order is kept as a
/// queue of keys beside the dictionary. Letting go of "whichever the dictionary holds first"
/// instead emptied the table's first buckets over and over. Its open addressing then piled new
/// keys into ever longer runs: once a library's listings had remembered half a million assets'
/// facts, one lookup compared hundreds of keys, and a page of 60 took 30 ms instead of 0.5.
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
        /// Each value with the number of the `remember` that stored it.
        @usableFromInline var values: [Key: (value: Value, stored: Int)] = [:]
        @usableFromInline var cost = 0
        /// Keys in the order they were stored, from `head` on; an entry whose number is no longer
        /// its key's (stored again, or forgotten) is passed over.
        @usableFromInline var order: [(key: Key, stored: Int)] = []
        @usableFromInline var head = 0
        @usableFromInline var stored = 0

        @usableFromInline init() {}

        @usableFromInline mutating func remove(_ key: Key, _ cost: (Value) -> Int) {
            if let old = values.removeValue(forKey: key) { self.cost -= cost(old.value) }
        }

        /// Lets go of the value remembered longest ago; false when there is none.
        @usableFromInline mutating func letGoOfOldest(_ cost: (Value) -> Int) -> Bool {
            while head < order.count {
                let (key, number) = order[head]
                head += 1
                if values[key]?.stored == number {
                    remove(key, cost)
                    return true
                }
            }
            return false
        }

        /// Keeps the queue within twice the values: what was passed over, or stored again while
        /// nothing had to go, is dropped from it.
        @usableFromInline mutating func compact() {
            guard order.count - head > 2 * values.count + 64 else { return }
            order = order[head...].filter { values[$0.key]?.stored == $0.stored }
            head = 0
        }
    }

    /// At most `capacity` values, or values whose `cost` adds up to at most `capacity`.
    public init(capacity: Int, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.capacity = capacity
        self.cost = cost
    }

    @inlinable public subscript(key: Key) -> Value? {
        state.withLock { $0.values[key]?.value }
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
            state.remove(key, cost)
            guard added <= capacity else { return }
            while state.cost + added > capacity, state.letGoOfOldest(cost) {}
            state.stored += 1
            state.values[key] = (value, state.stored)
            state.order.append((key, state.stored))
            state.cost += added
            state.compact()
        }
    }

    @inlinable public func forget(_ key: Key) {
        state.withLock { $0.remove(key, cost) }
    }

    /// Lets go of every value whose key `matches`.
    @inlinable public func forget(where matches: (Key) -> Bool) {
        state.withLock { state in
            for key in state.values.keys where matches(key) { state.remove(key, cost) }
        }
    }
}
