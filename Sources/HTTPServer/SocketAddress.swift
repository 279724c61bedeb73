internal import Glibc

/// The address to listen on, from an IPv4 or IPv6 literal. Names are refused: resolving one
/// would make what the server exposes depend on DNS.
package struct SocketAddress {
    let host: String
    let port: Int
    package let isIPv6: Bool
    /// `::`, on which the server takes IPv4 clients as well, as people who listen there mean.
    let isIPv6Any: Bool
    private var storage = sockaddr_storage()

    package init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        self.host = host
        self.port = port
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var ipv4 = sockaddr_in()
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET, literal, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv4, as: sockaddr_in.self) }
            isIPv6 = false
            isIPv6Any = false
        } else if inet_pton(AF_INET6, literal, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: ipv6, as: sockaddr_in6.self) }
            isIPv6 = true
            isIPv6Any = withUnsafeBytes(of: ipv6.sin6_addr) { $0.allSatisfy { $0 == 0 } }
        } else {
            return nil
        }
    }

    package var length: UInt32 {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    /// The address as libmicrohttpd's MHD_OPTION_SOCK_ADDR and connect(2) want it, valid inside `body`.
    package func withSockaddr<Result>(_ body: (UnsafeMutableRawPointer) -> Result) -> Result {
        var copy = storage
        return withUnsafeMutableBytes(of: &copy) { body($0.baseAddress!) }
    }

    /// Why binding the address fails (an errno), or nil if it works: libmicrohttpd only says
    /// that starting failed, and "the port is taken" is the answer people need.
    func bindFailure() -> Int32? {
        let probe = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return errno }
        defer { close(probe) }
        // The same reuse setting libmicrohttpd uses, so a port in TIME_WAIT does not count as taken.
        var one: Int32 = 1
        _ = setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withSockaddr { bind(probe, $0.assumingMemoryBound(to: sockaddr.self), length) }
        return bound == 0 ? nil : errno
    }
}
