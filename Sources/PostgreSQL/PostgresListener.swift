import Executors
import Foundation
import Storage
internal import Synchronization

/// The one connection of a server that LISTENs for the announcements of every server sharing
/// the database, on a thread of its own, handing each to every stream of `subscribe()`: it waits
/// on the socket, so nothing polls the database. When the connection breaks it is made again,
/// a second later and then every few seconds, and the streams say `resumed`, since what was
/// announced in between is lost. It starts with the first stream and stops when the last ends.
final class PostgresListener: Sendable {
    private let connect: @Sendable () throws(StorageError) -> PostgresConnection
    private let subscribers = Mutex<(next: Int, streams: [Int: AsyncStream<Announcement>.Continuation])>((0, [:]))
    private let stopped = Atomic(true)
    private let thread = BlockingExecutor(name: "pg-listen", threads: 1)

    init(connect: @escaping @Sendable () throws(StorageError) -> PostgresConnection) {
        self.connect = connect
    }

    /// How long a wait on the socket lasts before the listener looks whether it was stopped.
    private static let tick: Int32 = 250

    func subscribe() -> AsyncStream<Announcement> {
        let (stream, continuation) = AsyncStream.makeStream(of: Announcement.self, bufferingPolicy: .bufferingNewest(4096))
        let (token, first) = subscribers.withLock { subscribers in
            subscribers.next += 1
            subscribers.streams[subscribers.next] = continuation
            return (subscribers.next, subscribers.streams.count == 1)
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(token) }
        if first, stopped.exchange(false, ordering: .acquiringAndReleasing) { start() }
        return stream
    }

    private func unsubscribe(_ token: Int) {
        let last = subscribers.withLock { subscribers in
            subscribers.streams[token] = nil
            return subscribers.streams.isEmpty
        }
        if last { stopped.store(true, ordering: .releasing) }
    }

    private func yield(_ announcement: Announcement) {
        for stream in subscribers.withLock({ Array($0.streams.values) }) { stream.yield(announcement) }
    }

    private func start() {
        thread.submit { [self] _ in
            var retry = 1.0
            while !stopped.load(ordering: .relaxed) {
                do {
                    let connection = try connect()
                    try connection.listen()
                    retry = 1
                    yield(.resumed)
                    while !stopped.load(ordering: .relaxed) {
                        for topic in try connection.notifications(waitingUpTo: Self.tick) { yield(.topic(topic)) }
                    }
                } catch {
                    pause(seconds: retry)
                    retry = min(retry * 2, 5)
                }
            }
        }
    }

    /// Sleeps in ticks, so a stop is seen within one.
    private func pause(seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while !stopped.load(ordering: .relaxed) && Date() < end { usleep(UInt32(Self.tick) * 1000) }
    }
}
