import HTTPServer
import IPAddress
import Testing

/// Behind a load balancer the client is in X-Forwarded-For; only the balancers named are
/// believed, and of the list only what they appended.
@Suite struct ForwardedForTests {
    let balancers = ForwardedFor(proxies: [IPAddress("10.0.0.2")!, IPAddress("10.0.0.3")!])

    @Test func theClientIsWhatTheTrustedProxyAppended() {
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["198.51.100.7"]).address == "198.51.100.7")
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["2001:db8::1"]).address == IPAddress("2001:db8::1")?.description)
        // Two balancers in a row: the first one's own address is passed over.
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["198.51.100.7, 10.0.0.3"]).address == "198.51.100.7")
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["198.51.100.7", "10.0.0.3"]).address == "198.51.100.7")
    }

    @Test func whatAClientWroteItselfIsNotRead() {
        // The client claims to be loopback; the balancer appends where it really came from.
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["127.0.0.1, 198.51.100.7"]).address == "198.51.100.7")
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["127.0.0.1", "198.51.100.7"]).address == "198.51.100.7")
    }

    @Test func anyoneElsesHeaderIsIgnored() {
        #expect(balancers.client(peer: "198.51.100.9", forwarded: ["127.0.0.1"]).address == "198.51.100.9")
        #expect(ForwardedFor(proxies: []).client(peer: "127.0.0.1", forwarded: ["198.51.100.7"]).address == "127.0.0.1")
        #expect(balancers.client(peer: "10.0.0.2", forwarded: []).address == "10.0.0.2")
    }

    /// A proxy names 127.0.0.1 for every process on its own host: a forwarded request is never
    /// this computer's, whatever client it names. One that names none is the proxy's own.
    @Test func whatATrustedProxyForwardedIsForwardedWhateverItNames() {
        for forwarded in [["127.0.0.1"], ["::ffff:127.0.0.1"], ["198.51.100.7, 127.0.0.1"], ["::1"], ["unknown"]] {
            #expect(balancers.client(peer: "10.0.0.2", forwarded: forwarded).throughProxy, "\(forwarded)")
        }
        let sameHost = ForwardedFor(proxies: [IPAddress("127.0.0.1")!])
        #expect(sameHost.client(peer: "127.0.0.1", forwarded: ["::1"]) == .init(address: IPAddress("::1")!.description, throughProxy: true))
        #expect(sameHost.client(peer: "127.0.0.1", forwarded: []) == .init(address: "127.0.0.1", throughProxy: false))
        #expect(!sameHost.client(peer: "127.0.0.2", forwarded: ["198.51.100.7"]).throughProxy)
        #expect(!ForwardedFor(proxies: []).client(peer: "127.0.0.1", forwarded: ["198.51.100.7"]).throughProxy)
    }

    @Test func aListWithNoClientItCanBeSureOfIsNobody() {
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["not-an-address"]).address == ForwardedFor.unknown)
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["10.0.0.3"]).address == ForwardedFor.unknown)
        #expect(balancers.client(peer: "10.0.0.2", forwarded: ["198.51.100.7, unknown"]).address == ForwardedFor.unknown)
    }
}
