public import Synchronization

/// Bytes kept in memory to be answered many times (a thumbnail), with room for one thing made of
/// them by whoever answers them: a server keeps its whole ready response here, so that the
/// lookup that finds the bytes finds the answer too, and no other map holds them again.
///
/// What is made may hold the bytes (`stable`) but not this object, which holds it.
public final class KeptBytes: Sendable, Equatable {
    public let stable: StableBytes
    @usableFromInline let made = Mutex<(any Sendable)?>(nil)

    public init(_ stable: StableBytes) {
        self.stable = stable
    }

    public convenience init(_ bytes: [UInt8]) {
        self.init(StableBytes(bytes))
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] { stable.bytes }

    /// What `make` makes of the bytes, made the first time it is asked for and kept with them.
    /// One kind of thing is kept: asking for another makes it and keeps it instead.
    @inlinable public func made<Made: Sendable>(by make: (StableBytes) -> Made) -> Made {
        made.withLock { made in
            if let kept = made as? Made { return kept }
            let new = make(stable)
            made = new
            return new
        }
    }

    public static func == (left: KeptBytes, right: KeptBytes) -> Bool {
        left.stable == right.stable
    }
}
