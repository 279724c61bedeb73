import Foundation

/// Asks until `done` holds, for at most `seconds`, and says whether it came to hold: for news
/// that takes its time between processes (a notification, a health check). A deadline, not a
/// measurement: a test fails only when the news never comes.
public func eventually(seconds: Double = 20, _ done: () async throws -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if try await done() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await done()
}
