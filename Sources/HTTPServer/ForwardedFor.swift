public import IPAddress

/// The client a request comes from when it comes through proxies of the operator's (haproxy in
/// front of several servers): the proxy's own address is the socket's, and the client's is in
/// `X-Forwarded-For`, which each proxy appends to. Only the proxies named are believed, and of
/// the list only what they appended: reading from the right, past the trusted proxies, the first
/// address is the client's. Anything a client wrote itself stands to the left of it, unread.
public struct ForwardedFor: Sendable {
    public let proxies: Set<IPAddress>

    public init(proxies: Set<IPAddress>) {
        self.proxies = proxies
    }

    /// Who sent a request.
    public struct Client: Sendable, Equatable {
        /// What becomes the request's `remoteAddress`.
        public var address: String
        /// It came from a trusted proxy: never this computer's own, whatever address it names.
        public var throughProxy: Bool

        public init(address: String, throughProxy: Bool) {
            self.address = address
            self.throughProxy = throughProxy
        }
    }

    /// The socket's peer, or, from a trusted proxy, the client it forwarded for. A list a
    /// trusted proxy sent that names no client it can be sure of gives "unknown", which is no
    /// address, so it is nobody's. A request from a trusted proxy that names no client is the
    /// proxy's own (a health check), as if it had connected directly.
    public func client(peer: String, forwarded: [String]) -> Client {
        guard !forwarded.isEmpty, let address = IPAddress(peer), proxies.contains(address) else {
            return Client(address: peer, throughProxy: false)
        }
        let hops = forwarded.flatMap { $0.split(separator: ",") }.map { String($0.filter { !$0.isWhitespace }) }
        for hop in hops.reversed() {
            guard let hopAddress = IPAddress(hop) else { break }
            if !proxies.contains(hopAddress) { return Client(address: hopAddress.description, throughProxy: true) }
        }
        return Client(address: Self.unknown, throughProxy: true)
    }

    /// The client of a request from `peer` with these headers. Without proxies (the usual case)
    /// no header is read: this runs for every request.
    func client(peer: String, headers: Headers) -> Client {
        guard !proxies.isEmpty else { return Client(address: peer, throughProxy: false) }
        return client(peer: peer, forwarded: headers.values("X-Forwarded-For"))
    }

    public static let unknown = "unknown"
}
