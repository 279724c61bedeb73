internal import Synchronization

/// The request targets lately routed, each as its checked `RawURI` and its route: a grid asks
/// for the same few hundred thumbnail addresses over and over, and checking, decoding and
/// routing one anew was a tenth of the time answering it.
///
/// Only targets that passed every check and found a route are kept, by their raw bytes and
/// method, so a target is never answered otherwise than it would be checked and routed now.
final class RoutedTargets: Sendable {
    private let routed = Mutex<[Key: Routed]>([:])

    /// A bound on memory: when reached, all are let go and kept again as they are asked for.
    static let capacity = 4096
    /// Longer targets are routed each time, so that the kept ones take at most a few megabytes.
    static let longestTarget = 512

    struct Key: Hashable {
        let method: String
        let target: [UInt8]
    }

    struct Routed {
        let uri: RawURI
        let route: Router.Route
        let parameters: [String: String]
    }

    func routed(_ key: Key) -> Routed? {
        routed.withLock { $0[key] }
    }

    func keep(_ routed: Routed, for key: Key) {
        guard key.target.count <= Self.longestTarget else { return }
        self.routed.withLock { kept in
            if kept.count >= Self.capacity { kept.removeAll(keepingCapacity: true) }
            kept[key] = routed
        }
    }
}
