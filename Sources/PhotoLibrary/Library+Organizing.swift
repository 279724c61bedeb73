public import Foundation
import Storage

extension Library {
    /// The most items one change takes: a selection of a whole year is a few thousand.
    public static let maxBatch = 10_000

    /// How long the trash keeps an item before it is deleted for good, as Photos' Recently Deleted.
    public static let trashRetention: TimeInterval = 30 * 24 * 3600

    /// Refuses a batch that is empty, too large or names an asset twice.
    static func requireBatch(_ ids: [String]) throws(LibraryError) {
        guard (1...maxBatch).contains(ids.count), Set(ids).count == ids.count else {
            throw LibraryError(.invalidRequest, "ids: 1 to \(maxBatch) different asset ids.")
        }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// A new row's id: 32 hex digits.
    static func newID() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}

extension Asset {
    /// When a trashed asset is deleted for good (by the hourly sweep): what Recently Deleted
    /// counts its days left to.
    public var purgeDate: String? {
        guard let trashedDate, let trashed = try? Date(trashedDate, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        else { return nil }
        return Library.timestamp(trashed.addingTimeInterval(Library.trashRetention))
    }
}
