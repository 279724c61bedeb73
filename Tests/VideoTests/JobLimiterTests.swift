import Testing

@testable import Video

/// Counts bodies running at once and remembers the most seen.
private actor Occupancy {
    private(set) var current = 0
    private(set) var peak = 0

    func enter() {
        current += 1
        peak = max(peak, current)
    }

    func leave() { current -= 1 }
}

@Suite struct JobLimiterTests {
    @Test(arguments: [1, 2, 3])
    func neverMoreThanTheLimitAtOnce(_ limit: Int) async {
        let limiter = JobLimiter(limit: limit)
        let occupancy = Occupancy()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await limiter.withSlot {
                        await occupancy.enter()
                        try? await Task.sleep(for: .milliseconds(10))
                        await occupancy.leave()
                    }
                }
            }
        }
        #expect(await occupancy.peak == limit)
        #expect(await occupancy.current == 0)
    }

    @Test func aThrowingBodyFreesItsSlot() async {
        let limiter = JobLimiter(limit: 1)
        let failed = await Fixture.errorCode { () async throws(VideoError) in
            try await limiter.withSlot { () throws(VideoError) in throw VideoError(.failed, "test") }
        }
        #expect(failed == .failed)
        let value = await limiter.withSlot { 42 }
        #expect(value == 42)
    }

    @Test func copiesOfVideoToolsShareTheirLimits() {
        let tools = VideoTools(maxConcurrentJobs: 2)
        let copy = tools
        #expect(tools.encodeJobs === copy.encodeJobs)
        #expect(tools.probeJobs === copy.probeJobs)
        #expect(tools.encodeJobs.limit == 2)
        #expect(VideoTools(maxConcurrentJobs: 0).encodeJobs.limit == 1)
    }
}
