internal import Memo

/// The request targets lately routed, each as its checked `RawURI` and its route: a grid asks
/// for the same few hundred thumbnail addresses over and over, and checking, decoding and
/// routing one anew was a tenth of the time answering it.
///
/// Only targets that passed every check and found a route are kept, by their raw bytes and
/// method, so a target is never answered otherwise than it would be checked and routed now.
struct RoutedTargets: Sendable {
    /// A bound on memory: up to 4096 targets of at most `longestTarget` bytes.
    private let routed = BoundedMemo<Key, Routed>(capacity: 4096)
    /// Longer targets are routed each time, so that the kept ones take at most a few megabytes.
    static let longestTarget = 512

    struct Key: Hashable, Sendable {
        let method: String
        let target: [UInt8]
    }

    struct Routed: Sendable {
        let uri: RawURI
        let route: Router.Route
        let parameters: [String: String]
    }

    func routed(_ key: Key) -> Routed? {
        routed[key]
    }

    func keep(_ routed: Routed, for key: Key) {
        guard key.target.count <= Self.longestTarget else { return }
        self.routed.remember(routed, for: key)
    }
}
