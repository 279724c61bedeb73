/// How the server listens and what it tolerates. Every limit has a safe default.
public struct Configuration: Sendable {
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; `Server.port` tells which.
    public var port: Int = 8080
    /// HTTPS with this identity; nil serves plain HTTP.
    public var tls: TLSIdentity?
    /// Threads polling connections (poll(2)). Fast handlers run on them; async handlers run as
    /// tasks elsewhere.
    public var threads: Int = 2
    /// A connection idle this long is closed.
    public var connectionTimeout: Duration = .seconds(30)
    /// Until its TLS handshake is done and its first request head is in, a connection idle this
    /// long is closed (clients send their request as soon as they connect); then `connectionTimeout`.
    public var headTimeout: Duration = .seconds(10)
    public var connectionLimit: Int = 512
    public var perIPConnectionLimit: Int = 64
    /// Connections at once from clients that are neither loopback nor in `trustedClients`: the rest
    /// of `connectionLimit` stays free for those, however many connections others open.
    public var untrustedConnectionLimit: Int = 384
    /// Connections at once from untrusted clients within one IPv6 /64, where one device can pick
    /// addresses at will (`perIPConnectionLimit` holds for each address too).
    public var perNetworkConnectionLimit: Int = 128
    /// The clients the application vouches for (signed in, say), besides loopback.
    public var trustedClients = TrustedClients()
    /// Proxies in front of the server whose `X-Forwarded-For` names the client; their own
    /// connections count as trusted, since every client's comes through them.
    public var forwardedFor = ForwardedFor(proxies: [])
    /// Memory for one connection's request line and headers (and read buffer). libmicrohttpd
    /// zeroes all of it before each request of a kept-alive connection, so more than requests
    /// need costs time on every request (that memset is the largest single cost of answering a
    /// cached thumbnail). 32 KB holds 8 KB of headers, as nginx takes (16 KB did not): cookies
    /// are not kept per port, so other apps on the same host name add theirs.
    public var connectionMemoryLimit: Int = 32 * 1024
    /// Where request bodies are streamed; the same file system as wherever handlers move them.
    public var bodyDirectory: String
    /// After `minimumBodyRateGrace`, a body arriving slower than this (bytes/s) is cut off (408).
    public var minimumBodyRate: Int = 16 * 1024
    public var minimumBodyRateGrace: Duration = .seconds(10)
    /// How long a graceful stop waits for requests in flight.
    public var stopGrace: Duration = .seconds(10)
    /// One access-log line per request, and error details.
    public var log: @Sendable (String) -> Void = { _ in }

    public init(bodyDirectory: String) {
        self.bodyDirectory = bodyDirectory
    }
}
