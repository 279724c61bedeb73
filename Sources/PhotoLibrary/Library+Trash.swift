public import Foundation
import Storage

/// What a garbage collection removed.
public struct CollectionReport: Sendable, Equatable {
    public var blobsRemoved = 0
    public var derivativeFoldersRemoved = 0
    public var expiredCaptures = 0
    public var expiredUploads = 0
    public var expiredDownloads = 0
}

extension Library {
    /// Removes what nothing refers to: blobs without a row (left by a crash between a blob's
    /// store and its row's commit, or by a removal that failed), derivatives of deleted
    /// originals, unsaved captures past their retention, and resumable uploads and downloads
    /// past their expiry. Blobs younger than `grace` are left, and so are claims on blobs
    /// (`storeBlob`) younger than it: an import in another process may be about to commit.
    @discardableResult
    public func collectGarbage(grace: TimeInterval = 3600, now: Date = Date()) async throws(LibraryError) -> CollectionReport {
        var report = CollectionReport()
        report.expiredCaptures = try await ingest.expireUnsavedCaptures(now: now)
        report.expiredUploads = try await uploads.expireUploads(now: now)
        report.expiredDownloads = try await downloads.expireDownloads(now: now)
        let (removed, known) = try await ingest.collectOrphans(before: now.addingTimeInterval(-grace))
        report.blobsRemoved = removed
        report.derivativeFoldersRemoved = await derivatives.removeAll(except: known)
        return report
    }
}
