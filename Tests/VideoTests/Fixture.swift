import Foundation
import TestSupport
import Video

/// Shared test helpers for the Video tests.
enum Fixture {
    /// One value for the whole run, so its job limits hold across parallel tests as they would in
    /// the app, and two cores are not buried under dozens of ffmpegs.
    static let tools = VideoTools()

    static let videos = Corpus.files(in: "videos")

    /// The first 64 bytes of a corpus file, as an upload sniffer sees them.
    static func header(_ relative: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: Corpus.path(relative)) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
    }

    static func format(_ relative: String) -> ContainerFormat? {
        ContainerFormat.sniff(header(relative))
    }

    /// The code of the error `body` throws, or nil when it succeeds.
    static func errorCode(_ body: () async throws(VideoError) -> Void) async -> VideoError.Code? {
        do {
            try await body()
            return nil
        } catch {
            return error.code
        }
    }

    /// The error `body` throws, or nil when it succeeds.
    static func error(_ body: () async throws(VideoError) -> Void) async -> VideoError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}
