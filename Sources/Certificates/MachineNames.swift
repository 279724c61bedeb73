internal import Glibc

/// The names by which this machine is reached on the local network, which a certificate for
/// it must cover: `localhost`, the host name (and its mDNS `.local` form), loopback and the
/// addresses of the interfaces that are up.
public struct MachineNames: Sendable, Equatable {
    public var hostNames: [String]
    /// Loopback first, then the LAN addresses (IPv4 before IPv6).
    public var addresses: [String]

    public init(hostNames: [String], addresses: [String]) {
        self.hostNames = hostNames
        self.addresses = addresses
    }

    public static let loopback = ["127.0.0.1", "::1"]

    /// The name certificates for this machine are called by, for people.
    var machineName: String { hostNames.last ?? "localhost" }

    /// The addresses other devices can use: neither loopback nor link-local.
    public var lanAddresses: [String] { addresses.filter { !Self.loopback.contains($0) } }

    public static func current() -> MachineNames {
        var hostNames = ["localhost"]
        if let host = hostName(), host != "localhost" { hostNames += [host, host + ".local"] }
        return MachineNames(hostNames: hostNames, addresses: loopback + interfaceAddresses())
    }

    /// The host name when it can stand in a certificate as a DNS name.
    private static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        let allowed = name.utf8.allSatisfy {
            $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A)
        }
        return name.isEmpty || !allowed ? nil : name
    }

    /// IPv4 then IPv6 addresses of interfaces that are up, without loopback and link-local ones:
    /// a link-local address needs a zone to be used, which URLs and certificates cannot carry.
    private static func interfaceAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var ipv4: [String] = []
        var ipv6: [String] = []
        var current = first
        while let entry = current?.pointee {
            current = entry.ifa_next
            guard let address = entry.ifa_addr, entry.ifa_flags & UInt32(IFF_UP) != 0,
                entry.ifa_flags & UInt32(IFF_LOOPBACK) == 0
            else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                }
                guard bytes[0] != 127, !(bytes[0] == 169 && bytes[1] == 254) else { continue }
                ipv4.append(bytes.map(String.init).joined(separator: "."))
            case AF_INET6:
                var value = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let bytes = withUnsafeBytes(of: value) { Array($0) }
                guard !(bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80) else { continue }
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                guard inet_ntop(AF_INET6, &value, &text, socklen_t(text.count)) != nil else { continue }
                ipv6.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            default:
                continue
            }
        }
        return unique(ipv4) + unique(ipv6)
    }

    private static func unique(_ addresses: [String]) -> [String] {
        var seen: Set<String> = []
        return addresses.filter { seen.insert($0).inserted }
    }
}
