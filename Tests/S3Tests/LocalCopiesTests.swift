import Foundation
import TestSupport
import Testing

@testable import S3

/// A server's copies of originals stay under their limit, the least lately used going first,
/// never one used within the last minute.
@Suite struct LocalCopiesTests {
    let directory = TemporaryDirectory("cameraroll-copies")
    let start = Date(timeIntervalSince1970: 2_000_000_000)

    func copy(_ name: String, size: Int) throws -> String {
        try Data(count: size).write(to: URL(fileURLWithPath: directory.file(name)))
        return name
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: directory.file(name)) }

    @Test func theLeastLatelyUsedGoFirstAndTheRecentlyUsedStay() throws {
        let copies = LocalCopies(folder: directory.path, limit: 250, isCopy: { $0.count == 1 })
        copies.added(try copy("a", size: 100), size: 100, now: start)
        copies.added(try copy("b", size: 100), size: 100, now: start.addingTimeInterval(100))
        copies.used("a", now: start.addingTimeInterval(200))
        copies.added(try copy("c", size: 100), size: 100, now: start.addingTimeInterval(300))
        #expect(!exists("b") && exists("a") && exists("c"), "b was used least lately")
        #expect(copies.bytes == 200)
        copies.added(try copy("d", size: 100), size: 100, now: start.addingTimeInterval(301))
        copies.added(try copy("e", size: 100), size: 100, now: start.addingTimeInterval(302))
        #expect(!exists("a"), "a was used 101 s before")
        #expect(exists("c") && exists("d") && exists("e"), "copies used within the minute stay, over the limit for a while")
        #expect(copies.bytes == 300)
    }

    @Test func aRestartFindsTheCopiesAndNotTheDownloadsUnderWay() throws {
        _ = try copy("a", size: 70)
        _ = try copy("b", size: 30)
        _ = try copy("partial.part", size: 1000)
        let copies = LocalCopies(folder: directory.path, limit: 1 << 20, isCopy: { $0.count == 1 })
        #expect(copies.bytes == 100)
        copies.removed("a")
        #expect(copies.bytes == 30)
    }
}
