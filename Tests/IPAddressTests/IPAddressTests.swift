import Glibc
import IPAddress
import Testing

@Suite struct IPAddressTests {
    func address(_ text: String) throws -> IPAddress {
        try #require(IPAddress(text))
    }

    @Test func oneClientIsOneAddressHoweverItIsWritten() throws {
        #expect(try address("10.0.0.7") == address("::ffff:10.0.0.7"))
        #expect(try address("10.0.0.7") == address("::FFFF:10.0.0.7"))
        #expect(try address("2001:DB8::1%eth0") == address("2001:db8:0:0:0:0:0:1"))
        #expect(try address("10.0.0.7") != address("10.0.0.8"))
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("") == nil)
        #expect(IPAddress("10.0.0.256") == nil)
        #expect(try address("::ffff:10.0.0.7").description == "10.0.0.7")
        #expect(try address("2001:DB8::1%eth0").description == "2001:db8:0:0:0:0:0:1")
    }

    @Test func loopbackIsThisMachine() throws {
        for loopback in ["127.0.0.1", "127.200.3.4", "::1", "::ffff:127.0.0.1"] {
            #expect(try address(loopback).isLoopback, "\(loopback)")
        }
        for other in ["10.0.0.1", "128.0.0.1", "::2", "fe80::1", "::ffff:10.0.0.1", "126.255.255.255"] {
            #expect(try !address(other).isLoopback, "\(other)")
        }
    }

    @Test func ipv6AddressesGroupByTheir64AndIPv4OnesDoNot() throws {
        #expect(try address("2001:db8:1:2::1").network == address("2001:db8:1:2:ffff:1:2:3").network)
        #expect(try address("2001:db8:1:2::1").network != address("2001:db8:1:3::1").network)
        #expect(try address("2001:db8:1:2::1").network.description == "2001:db8:1:2:0:0:0:0")
        #expect(try address("10.0.0.7").network == address("10.0.0.7"))
        #expect(try address("10.0.0.7").network != address("10.0.0.8").network)
    }

    @Test func socketAddressesAreReadByFamily() throws {
        var ipv4 = sockaddr_in()
        ipv4.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "192.168.1.20", &ipv4.sin_addr)
        #expect(withUnsafeBytes(of: &ipv4) { IPAddress(socketAddress: $0.baseAddress!) } == (try address("192.168.1.20")))
        var ipv6 = sockaddr_in6()
        ipv6.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, "fd00::7", &ipv6.sin6_addr)
        #expect(withUnsafeBytes(of: &ipv6) { IPAddress(socketAddress: $0.baseAddress!) } == (try address("fd00::7")))
        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        #expect(withUnsafeBytes(of: &unix) { IPAddress(socketAddress: $0.baseAddress!) } == nil)
    }
}
