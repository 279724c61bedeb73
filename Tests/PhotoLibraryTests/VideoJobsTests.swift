import Foundation
import Synchronization
import Testing

@testable import PhotoLibrary

/// A video job that nobody waits for any more stops (its ffmpeg is killed with its task), and
/// its stop is no failure of the video's; a job every later asker wants goes on.
@Suite struct VideoJobsTests {
    static let key = VideoJobs.Key(hash: String(repeating: "ab", count: 32), derivative: "segment-3.mp4")

    /// A job that takes `seconds` unless cancelled, counting its starts and its cancellations.
    final class Job: Sendable {
        let starts = Atomic(0)
        let cancellations = Atomic(0)
        let seconds: Double

        init(seconds: Double) { self.seconds = seconds }

        var make: VideoJobs.Make {
            { [self] _ throws(LibraryError) in
                starts.add(1, ordering: .sequentiallyConsistent)
                do {
                    try await Task.sleep(for: .seconds(seconds))
                } catch {
                    cancellations.add(1, ordering: .sequentiallyConsistent)
                    throw LibraryError(.timeout, "The job was cancelled.")
                }
                return DerivativeCache.CachedFile(path: "/nonexistent", etag: "\"x\"")
            }
        }
    }

    static func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<400 where !condition() { try? await Task.sleep(for: .milliseconds(25)) }
        return condition()
    }

    @Test func aJobNobodyWaitsForStopsAndIsNoFailure() async throws {
        let jobs = VideoJobs()
        let job = Job(seconds: 30)
        let waiter = Task { try await jobs.run(Self.key, job.make) }
        #expect(await Self.waitUntil { job.starts.load(ordering: .sequentiallyConsistent) == 1 })
        waiter.cancel()
        #expect(await Self.waitUntil { job.cancellations.load(ordering: .sequentiallyConsistent) == 1 }, "the run was cancelled")
        await #expect(throws: LibraryError.self) { try await waiter.value }
        let state = await jobs.state(Self.key)
        #expect(state == nil, "no failure is kept")
        let quick = Job(seconds: 0)
        #expect(try await jobs.run(Self.key, quick.make).etag == "\"x\"", "the next asker runs it again")
    }

    @Test func aJobOthersStillWaitForGoesOn() async throws {
        let jobs = VideoJobs()
        let job = Job(seconds: 1)
        let leaving = Task { try await jobs.run(Self.key, job.make) }
        let staying = Task { try await jobs.run(Self.key, job.make) }
        #expect(await Self.waitUntil { job.starts.load(ordering: .sequentiallyConsistent) == 1 })
        leaving.cancel()
        #expect(try await staying.value.etag == "\"x\"")
        #expect(job.cancellations.load(ordering: .sequentiallyConsistent) == 0 && job.starts.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func aKeptJobGoesOnWhenItsOnlyWaiterLeaves() async throws {
        let jobs = VideoJobs()
        let job = Job(seconds: 1)
        let waiter = Task { try await jobs.run(Self.key, keptWhenAbandoned: true, job.make) }
        #expect(await Self.waitUntil { job.starts.load(ordering: .sequentiallyConsistent) == 1 })
        waiter.cancel()
        #expect(try await waiter.value.etag == "\"x\"", "a whole rendition is every later asker's")
        #expect(job.cancellations.load(ordering: .sequentiallyConsistent) == 0)
    }

    /// Asked for again while the run its last waiter left is still ending: a run of its own, not
    /// the cancelled one's error.
    @Test func anAskerAfterTheLastWaiterLeftGetsARunOfItsOwn() async throws {
        let jobs = VideoJobs()
        let slowToStop = Job(seconds: 30)
        let ending = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let stubborn: VideoJobs.Make = { progress throws(LibraryError) in
            do throws(LibraryError) {
                return try await slowToStop.make(progress)
            } catch {
                // Cancelled: it ends only once the test has asked again.
                await withCheckedContinuation { continuation in ending.withLock { $0 = continuation } }
                throw error
            }
        }
        let leaving = Task { try await jobs.run(Self.key, stubborn) }
        #expect(await Self.waitUntil { slowToStop.starts.load(ordering: .sequentiallyConsistent) == 1 })
        leaving.cancel()
        #expect(await Self.waitUntil { ending.withLock { $0 != nil } }, "the run was cancelled and is still ending")
        let fresh = Job(seconds: 0)
        let again = Task { try await jobs.run(Self.key, fresh.make) }
        #expect(await Self.waitUntil { fresh.starts.load(ordering: .sequentiallyConsistent) == 1 }, "a run of its own")
        ending.withLock { $0?.resume() }
        #expect(try await again.value.etag == "\"x\"")
        await #expect(throws: LibraryError.self) { try await leaving.value }
        let state = await jobs.state(Self.key)
        #expect(state == nil, "the ended run took nothing of the new one's with it")
    }
}
