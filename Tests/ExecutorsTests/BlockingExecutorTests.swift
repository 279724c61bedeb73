import Executors
import Foundation
import Synchronization
import Testing

/// Blocking work runs on the executor's own threads, at most as many at once as it has, each
/// thread with its own context, and never on the cooperative pool.
@Suite struct BlockingExecutorTests {
    @Test func jobsRunOnTheExecutorsThreadsAtMostThatManyAtOnce() async throws {
        final class Seen: Sendable {
            let running = Mutex((now: 0, most: 0))
            let names = Mutex(Set<String>())
        }
        let executor = BlockingExecutor(name: "test.blocking", threads: 3)
        let seen = Seen()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await executor.run {
                        seen.running.withLock { running in
                            running.now += 1
                            running.most = max(running.most, running.now)
                        }
                        seen.names.withLock { _ = $0.insert(Thread.current.name ?? "") }
                        usleep(20_000)
                        seen.running.withLock { $0.now -= 1 }
                    }
                }
            }
        }
        #expect(seen.running.withLock { $0.most } == 3)
        #expect(seen.names.withLock { $0 } == ["test.blocking 1", "test.blocking 2", "test.blocking 3"])
    }

    @Test func aThreadsContextIsItsOwnAndAJobsErrorIsTheCallers() async throws {
        struct Refused: Error, Equatable {}
        let executor = BlockingExecutor(name: "test.lane", threads: 1) { _ in 0 }
        for _ in 0..<5 {
            _ = await executor.run { (count: inout Int) -> Int in
                count += 1
                return count
            }
        }
        #expect(await executor.run { (count: inout Int) -> Int in count } == 5, "one thread, one context: a serial executor")
        await #expect(throws: Refused()) {
            try await executor.run { (_: inout Int) throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test func threadsStartOnlyWhenJobsFindNoneIdleEachMakingItsContext() async {
        let executor = BlockingExecutor(name: "test.lazy", threads: 4) { index in index }
        #expect(Self.threadNames().filter { $0.hasPrefix("test.lazy") }.isEmpty, "no job yet, no thread")
        for _ in 0..<5 { #expect(await executor.run { (index: inout Int) -> Int in index } == 0, "one at a time: the first thread") }
        withExtendedLifetime(executor) {
            #expect(Self.threadNames().filter { $0.hasPrefix("test.lazy") } == ["test.lazy 1"])
        }
    }

    /// A job whose caller is cancelled while it waits for a thread is not done; one already
    /// running ends as it would have, and an uncancelled caller is not affected.
    @Test func aJobWhoseCallerIsCancelledBeforeItStartsIsNotDone() async throws {
        struct Gone: Error, Equatable {}
        final class Seen: Sendable {
            let released = Atomic<Bool>(false)
            let started = Atomic<Bool>(false)
            let ran = Mutex<[String]>([])
        }
        let executor = BlockingExecutor(name: "test.cancel", threads: 1)
        let seen = Seen()
        let blocker = Task {
            try await executor.run(unlessCancelledFirst: { Gone() }) { () throws(Gone) in
                seen.started.store(true, ordering: .sequentiallyConsistent)
                while !seen.released.load(ordering: .sequentiallyConsistent) { usleep(1000) }
                seen.ran.withLock { $0.append("blocker") }
            }
        }
        while !seen.started.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(1)) }
        let waiting = Task {
            try await executor.run(unlessCancelledFirst: { Gone() }) { () throws(Gone) in seen.ran.withLock { $0.append("waiting") } }
        }
        let kept = Task {
            try await executor.run(unlessCancelledFirst: { Gone() }) { () throws(Gone) in seen.ran.withLock { $0.append("kept") } }
        }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        blocker.cancel()
        seen.released.store(true, ordering: .sequentiallyConsistent)
        try await blocker.value
        await #expect(throws: Gone()) { try await waiting.value }
        try await kept.value
        #expect(seen.ran.withLock { $0 } == ["blocker", "kept"])
    }

    @Test func jobsRunInTheOrderTheyCameOnOneThread() async {
        let executor = BlockingExecutor(name: "test.order", threads: 1)
        let order = Mutex<[Int]>([])
        for index in 0..<200 { executor.submit { _ in order.withLock { $0.append(index) } } }
        await executor.run {}
        #expect(order.withLock { $0 } == Array(0..<200))
    }

    @Test func droppingTheExecutorEndsItsThreadsAfterTheirJobs() async throws {
        let finished = Mutex(false)
        let named = Mutex(false)
        var executor: BlockingExecutor<Void>? = BlockingExecutor(name: "test.end", threads: 1)
        executor?.submit { _ in
            named.withLock { $0 = Self.threadNames().contains("test.end") }
            usleep(50_000)
            finished.withLock { $0 = true }
        }
        executor = nil
        for _ in 0..<100 where !finished.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(finished.withLock { $0 }, "a queued job still runs")
        #expect(named.withLock { $0 }, "the kernel knows the thread by the executor's name")
        for _ in 0..<100 where Self.threadNames().contains("test.end") { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!Self.threadNames().contains("test.end"), "its thread is gone")
        #expect(executor == nil)
    }

    /// The names of this process's threads, as the kernel has them.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
        }
    }
}
