import IPAddress
import Testing

@testable import HTTPServer

/// Who is let in when many connections are open: the pool for untrusted clients, the share of
/// one IPv6 /64, and trust from loopback or from the application.
@Suite struct ConnectionAdmissionTests {
    func address(_ text: String) throws -> IPAddress {
        try #require(IPAddress(text))
    }

    @Test func untrustedClientsShareAPoolThatLeavesRoomForTrustedOnes() throws {
        var admission = ConnectionAdmission(untrustedLimit: 3, perNetworkLimit: 10)
        for (connection, text) in ["10.0.0.1", "10.0.0.2", "10.0.0.3"].enumerated() {
            let client = try address(text)
            #expect(admission.admits(client, trusted: false))
            admission.opened(connection, from: client, trusted: false)
        }
        #expect(!admission.admits(try address("10.0.0.4"), trusted: false))
        #expect(admission.admits(try address("10.0.0.4"), trusted: true))
        // Trusted connections take nothing from the pool.
        admission.opened(10, from: try address("10.0.0.9"), trusted: true)
        admission.closed(10)
        #expect(admission.untrusted == 3)
        admission.closed(1)
        #expect(admission.admits(try address("10.0.0.4"), trusted: false))
    }

    @Test func one64GetsItsShareAndOthersStillGetIn() throws {
        var admission = ConnectionAdmission(untrustedLimit: 100, perNetworkLimit: 4)
        for connection in 0..<4 {
            let client = try address("2001:db8:0:1::\(connection + 1)")
            #expect(admission.admits(client, trusted: false))
            admission.opened(connection, from: client, trusted: false)
        }
        #expect(!admission.admits(try address("2001:db8:0:1::99"), trusted: false))
        #expect(admission.admits(try address("2001:db8:0:1::99"), trusted: true))
        #expect(admission.admits(try address("2001:db8:0:2::1"), trusted: false))
        #expect(admission.admits(try address("10.0.0.1"), trusted: false))
        admission.closed(2)
        #expect(admission.admits(try address("2001:db8:0:1::99"), trusted: false))
    }

    /// A close undoes what the open counted, even if the address became trusted meanwhile.
    @Test func aCloseUndoesWhatItsOpenCounted() throws {
        var admission = ConnectionAdmission(untrustedLimit: 1, perNetworkLimit: 1)
        let client = try address("2001:db8::5")
        admission.opened(1, from: client, trusted: false)
        #expect(!admission.admits(client, trusted: false))
        admission.closed(1)
        admission.closed(1)
        #expect(admission.untrusted == 0)
        #expect(admission.admits(client, trusted: false))
    }

    @Test func theApplicationVouchesForAddressesForAWhile() async throws {
        let trusted = TrustedClients(remembering: .milliseconds(300))
        #expect(trusted.trusts(try address("127.0.0.1")))
        #expect(trusted.trusts(try address("::1")))
        #expect(!trusted.trusts(try address("10.0.0.5")))
        trusted.vouch(for: "10.0.0.5")
        trusted.vouch(for: "not an address")
        #expect(trusted.trusts(try address("10.0.0.5")))
        #expect(trusted.trusts(try address("::ffff:10.0.0.5")))
        #expect(!trusted.trusts(try address("10.0.0.6")))
        try await Task.sleep(for: .milliseconds(400))
        #expect(!trusted.trusts(try address("10.0.0.5")))
    }

    @Test func aFullTableForgetsItsOldestAddress() throws {
        let trusted = TrustedClients()
        for index in 0...TrustedClients.capacity {
            trusted.vouch(for: "2001:db8::\(String(index, radix: 16))")
        }
        #expect(!trusted.trusts(try address("2001:db8::0")))
        #expect(trusted.trusts(try address("2001:db8::1")))
        #expect(trusted.trusts(try address("2001:db8::\(String(TrustedClients.capacity, radix: 16))")))
    }
}
