import IPAddress

/// Which new connections are served. Trusted clients (loopback, and those the application vouches
/// for in `TrustedClients`) always are, up to the connection limit; all other clients share a
/// smaller pool, within which one IPv6 /64 gets only a share. So connections opened from elsewhere,
/// from however many addresses, cannot take the room of this machine and of signed-in clients.
/// Per address, libmicrohttpd's own per-IP limit holds for everyone.
///
/// Checked when a connection is accepted and counted when libmicrohttpd starts serving it, on
/// the same thread a moment later: with several polling threads, each may let one connection past
/// a limit in that moment.
struct ConnectionAdmission {
    let untrustedLimit: Int
    let perNetworkLimit: Int
    private(set) var untrusted = 0
    private var perNetwork: [IPAddress: Int] = [:]
    /// The untrusted connections open, by connection: a close undoes what its open counted, even
    /// if the address was vouched for in between.
    private var counted: [Int: IPAddress] = [:]

    init(untrustedLimit: Int, perNetworkLimit: Int) {
        self.untrustedLimit = untrustedLimit
        self.perNetworkLimit = perNetworkLimit
    }

    func admits(_ address: IPAddress, trusted: Bool) -> Bool {
        guard !trusted else { return true }
        guard untrusted < untrustedLimit else { return false }
        return Self.sharedNetwork(address).map { perNetwork[$0, default: 0] < perNetworkLimit } ?? true
    }

    mutating func opened(_ connection: Int, from address: IPAddress, trusted: Bool) {
        guard !trusted else { return }
        counted[connection] = address
        untrusted += 1
        if let network = Self.sharedNetwork(address) { perNetwork[network, default: 0] += 1 }
    }

    mutating func closed(_ connection: Int) {
        guard let address = counted.removeValue(forKey: connection) else { return }
        untrusted -= 1
        if let network = Self.sharedNetwork(address) {
            perNetwork[network, default: 1] -= 1
            if perNetwork[network] == 0 { perNetwork[network] = nil }
        }
    }

    /// The /64 an IPv6 address shares with others; an IPv4 address is its own network, which
    /// libmicrohttpd's per-IP limit covers already.
    private static func sharedNetwork(_ address: IPAddress) -> IPAddress? {
        address.isIPv4 ? nil : address.network
    }
}
