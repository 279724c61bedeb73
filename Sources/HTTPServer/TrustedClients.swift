import IPAddress
internal import Synchronization

/// Addresses the application vouches for, such as those of clients that recently made a request
/// with a valid sign-in session: with loopback, the clients the server keeps connections free for
/// when others open many (`Configuration.untrustedConnectionLimit`). The server knows nothing of
/// sessions; the application tells it. Being vouched for grants room, never access.
public final class TrustedClients: Sendable {
    private let remembered: Duration
    /// When each address was last vouched for.
    private let vouched = Mutex<[IPAddress: ContinuousClock.Instant]>([:])
    /// Enough for every device of a household many times over; a full table forgets its oldest.
    static let capacity = 1024

    /// `remembering`: how long an address stays trusted after it was last vouched for.
    public init(remembering: Duration = .seconds(24 * 3600)) {
        remembered = remembering
    }

    /// Trust `address` (as `Request.remoteAddress` gives it) from now on, for a while. Cheap
    /// enough for every request.
    public func vouch(for address: String) {
        guard let address = IPAddress(address), !address.isLoopback else { return }
        let now = ContinuousClock.now
        vouched.withLock { vouched in
            if vouched[address] == nil, vouched.count >= Self.capacity {
                vouched = vouched.filter { now - $0.value < remembered }
                if vouched.count >= Self.capacity, let oldest = vouched.min(by: { $0.value < $1.value })?.key {
                    vouched[oldest] = nil
                }
            }
            vouched[address] = now
        }
    }

    /// Loopback, or vouched for recently.
    func trusts(_ address: IPAddress) -> Bool {
        guard !address.isLoopback else { return true }
        let now = ContinuousClock.now
        return vouched.withLock { $0[address].map { now - $0 < remembered } ?? false }
    }
}
