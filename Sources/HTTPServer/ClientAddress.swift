internal import Glibc

/// A client's IP address as sixteen bytes, an IPv4 address in its IPv4-mapped IPv6 form, so that
/// a client counts as one whether a dual-stack socket or an IPv4 one accepted it.
struct ClientAddress: Hashable, Sendable {
    /// The first and last eight bytes, most significant first.
    private let high: UInt64
    private let low: UInt64

    private init(_ bytes: UnsafeRawBufferPointer) {
        high = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian
        low = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian
    }

    private init(ipv4 address: in_addr) {
        high = 0
        low = 0xffff << 32 | UInt64(UInt32(bigEndian: address.s_addr))
    }

    /// nil for anything but an IPv4 or IPv6 socket address.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self.init(ipv4: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr)
        case AF_INET6:
            var ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_addr
            self = withUnsafeBytes(of: &ipv6) { ClientAddress($0) }
        default:
            return nil
        }
    }

    /// From an address as text (`Request.remoteAddress`); nil if it is none.
    init?(_ text: String) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(ipv4: ipv4)
        } else if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self = withUnsafeBytes(of: &ipv6) { ClientAddress($0) }
        } else {
            return nil
        }
    }

    private var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }

    /// 127.0.0.0/8 or ::1: this machine.
    var isLoopback: Bool {
        isIPv4 ? low >> 24 & 0xff == 127 : high == 0 && low == 1
    }

    /// The IPv6 /64 the address is in, nil for IPv4. One device or one network's router hands out
    /// addresses within a /64 at will, so counting per address alone would not limit it.
    var network: UInt64? { isIPv4 ? nil : high }
}
