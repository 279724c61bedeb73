/// How the server listens and what it tolerates. Every limit has a safe default.
public struct Configuration: Sendable {
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; `Server.port` tells which.
    public var port: Int = 8080
    /// HTTPS with this identity; nil serves plain HTTP.
    public var tls: TLSIdentity?
    /// Threads polling connections (epoll). Fast handlers run on them; async handlers run as
    /// tasks elsewhere.
    public var threads: Int = 2
    /// A connection idle this long is closed.
    public var connectionTimeout: Duration = .seconds(30)
    public var connectionLimit: Int = 512
    public var perIPConnectionLimit: Int = 64
    /// Memory for one connection's request line and headers (and read buffer). libmicrohttpd
    /// zeroes all of it before each request of a kept-alive connection, so more than requests
    /// need costs time on every request.
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
