public import Foundation

/// A fresh folder under the system temp directory, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "cameraroll-test") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
