internal import Glibc

/// A client's IP address as sixteen bytes, an IPv4 address in its IPv4-mapped IPv6 form: a client
/// is one address whether a dual-stack socket or an IPv4 one accepted it, and however the address
/// was written (`::FFFF:10.0.0.7`, `2001:DB8::1%eth0`). The server's connection limits and the
/// sign-in lock-out both count clients by it.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The first and last eight bytes, most significant first.
    private let high: UInt64
    private let low: UInt64

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.init(
            high: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian,
            low: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian)
    }

    private init(ipv4 address: in_addr) {
        self.init(high: 0, low: 0xffff << 32 | UInt64(UInt32(bigEndian: address.s_addr)))
    }

    /// From an address as text; nil if it is none. A link-local address may name its interface
    /// (`fe80::1%eth0`): the address is the same.
    public init?(_ text: String) {
        let literal = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, literal, &ipv4) == 1 {
            self.init(ipv4: ipv4)
        } else if inet_pton(AF_INET6, literal, &ipv6) == 1 {
            self = withUnsafeBytes(of: &ipv6) { IPAddress(bytes: $0) }
        } else {
            return nil
        }
    }

    /// From a `struct sockaddr` (as libmicrohttpd gives a connection's); nil for anything but an
    /// IPv4 or IPv6 socket address.
    public init?(socketAddress address: UnsafeRawPointer) {
        switch Int32(address.loadUnaligned(as: sockaddr.self).sa_family) {
        case AF_INET:
            self.init(ipv4: address.loadUnaligned(as: sockaddr_in.self).sin_addr)
        case AF_INET6:
            var ipv6 = address.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            self = withUnsafeBytes(of: &ipv6) { IPAddress(bytes: $0) }
        default:
            return nil
        }
    }

    public var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }

    /// 127.0.0.0/8 or ::1: this machine.
    public var isLoopback: Bool {
        isIPv4 ? low >> 24 & 0xff == 127 : high == 0 && low == 1
    }

    /// The addresses one client may take at will: an IPv6 address's /64 (SLAAC lets a device use
    /// any address in it, and privacy extensions make new ones all day), an IPv4 address alone
    /// (a household behind NAT shares it already).
    public var network: IPAddress { isIPv4 ? self : IPAddress(high: high, low: 0) }

    /// Dotted for IPv4, eight groups of hexadecimal for IPv6.
    public var description: String {
        if isIPv4 { return (0..<4).map { String(low >> (24 - 8 * $0) & 0xff) }.joined(separator: ".") }
        return [high, low].flatMap { half in (0..<4).map { String(half >> (48 - 16 * $0) & 0xffff, radix: 16) } }.joined(separator: ":")
    }
}
