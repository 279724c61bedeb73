import Foundation
import PhotoLibrary

/// `trash ID...`, `restore ID...`, `delete ID...` (for good) and `gc` (delete what has been in the
/// trash for 30 days, collect what nothing uses).
enum MaintenanceCommand {
    static func run(_ command: String, _ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly([])
        let library = try await context.openLibrary()
        if command == "gc" {
            guard arguments.positional.isEmpty else { throw UsageError("gc takes no arguments.") }
            let purged = try await library.ingest.purgeTrash()
            let report = try await library.collectGarbage()
            Terminal.out(
                "Deleted \(purged) items 30 days in Recently Deleted. Removed \(report.blobsRemoved) unreferenced originals, \(report.derivativeFoldersRemoved) derivative folders, "
                    + "\(report.expiredCaptures) expired unsaved captures, \(report.expiredUploads) expired uploads, "
                    + "\(report.expiredDownloads) expired downloads.")
            return 0
        }
        guard !arguments.positional.isEmpty else { throw UsageError("Name at least one asset id.") }
        for id in arguments.positional {
            switch command {
            // The operator's: whoever's the asset is.
            case "trash": _ = try await library.catalog.trash(id, owner: nil)
            case "restore": _ = try await library.catalog.restore(id, owner: nil)
            default: try await library.ingest.deletePermanently(id)
            }
        }
        try await library.flush()
        return 0
    }
}
