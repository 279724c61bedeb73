internal import Glibc

/// A client's address as the lock-out counts it: the address, and the network whose every
/// address the same client may use. An IPv6 client is handed a whole /64 (SLAAC lets it take any
/// address in it, and privacy extensions make new ones all day), so its network is that /64. An
/// IPv4 client's network is its one address, which a household behind NAT shares already. An
/// IPv4 client reaching a dual-stack socket shows as `::ffff:a.b.c.d`: that is the IPv4 address.
struct ClientAddress: Hashable, Sendable {
    /// The address in one spelling, however it was written.
    let address: String
    let network: String

    init(_ text: String) {
        // A link-local address may name its interface (`fe80::1%eth0`); the address is the same.
        let literal = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, literal, &ipv4) == 1 {
            address = withUnsafeBytes(of: ipv4) { Self.dotted($0[...]) }
            network = address
        } else if inet_pton(AF_INET6, literal, &ipv6) == 1 {
            let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
            if bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                address = Self.dotted(bytes[12...])
                network = address
            } else {
                let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                address = groups.joined(separator: ":")
                network = groups[..<4].joined(separator: ":") + "::/64"
            }
        } else {
            // Not an address (a test's name, or none known): counted as what it says.
            address = text
            network = text
        }
    }

    private static func dotted<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        bytes.map(String.init).joined(separator: ".")
    }
}
