import Executors
import Foundation
import Storage
internal import Synchronization

/// One connection per stream that LISTENs for the announcements of every server sharing the
/// database, on a thread of its own: it waits on the socket, so nothing polls the database.
/// When the connection breaks it is made again, a second later and then every few seconds, and
/// the stream says `resumed`, since what was announced in between is lost.
final class PostgresListener: Sendable {
    private let connect: @Sendable () throws(StorageError) -> PostgresConnection
    private let stopped = Atomic(false)
    private let thread = BlockingExecutor(name: "pg-listen", threads: 1)

    init(connect: @escaping @Sendable () throws(StorageError) -> PostgresConnection) {
        self.connect = connect
    }

    /// How long a wait on the socket lasts before the listener looks whether it was stopped.
    private static let tick: Int32 = 250

    func start(_ continuation: AsyncStream<Announcement>.Continuation) {
        thread.submit { [self] _ in
            var retry = 1.0
            while !stopped.load(ordering: .relaxed) {
                do {
                    let connection = try connect()
                    try connection.listen()
                    retry = 1
                    continuation.yield(.resumed)
                    while !stopped.load(ordering: .relaxed) {
                        for topic in try connection.notifications(waitingUpTo: Self.tick) { continuation.yield(.topic(topic)) }
                    }
                } catch {
                    pause(seconds: retry)
                    retry = min(retry * 2, 5)
                }
            }
            continuation.finish()
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Sleeps in ticks, so a stop is seen within one.
    private func pause(seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while !stopped.load(ordering: .relaxed) && Date() < end { usleep(UInt32(Self.tick) * 1000) }
    }
}
