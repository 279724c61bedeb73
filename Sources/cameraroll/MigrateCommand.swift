import Foundation
import PhotoLibrary
import S3
import Synchronization

/// `migrate --to postgresql://… [--to-storage s3://BUCKET]`: copies the data folder's library
/// into a cluster's stores; `migrate --from … [--from-storage …]` copies one back into the data
/// folder. Every original is checked against its hash on the way; what the target has already is
/// kept, so an interrupted run is run again to finish.
enum MigrateCommand {
    static let valued: Set<String> = ["to", "from", "to-storage", "from-storage"]

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly(valued)
        guard arguments.positional.isEmpty else { throw UsageError("migrate takes no file names.") }
        guard context.database == nil && context.bucket == nil else {
            throw UsageError("migrate names the cluster with --to or --from, not --database or --storage.")
        }
        let to = arguments.value("to")
        let from = arguments.value("from")
        guard let url = to ?? from, (to == nil) != (from == nil), Context.isPostgreSQL(url) else {
            throw UsageError("migrate takes either --to or --from, with a PostgreSQL URL.")
        }
        let storage = arguments.value(to != nil ? "to-storage" : "from-storage")
        if to != nil && arguments.value("from-storage") != nil || from != nil && arguments.value("to-storage") != nil {
            throw UsageError("--to goes with --to-storage, --from with --from-storage.")
        }
        var bucket: S3Bucket?
        if let storage {
            do throws(S3Bucket.ConfigurationError) {
                bucket = try S3Bucket.from(url: storage, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw UsageError(error.message)
            }
        }
        let embedded = try await context.openLibrary()
        let cluster = try await Context(folder: context.folder, database: url, bucket: bucket).openLibrary()
        let (source, target) = to != nil ? (embedded, cluster) : (cluster, embedded)

        let bar = Mutex(ProgressBar(total: 0))
        let report = try await source.ingest.copyEverything(into: target) { done, total in
            bar.withLock { bar in
                if bar.total != total { bar = ProgressBar(total: total) }
                bar.update(done: done, rejected: 0, current: "")
            }
        }
        bar.withLock { $0.finish() }
        try await target.flush()
        Terminal.out(
            "Copied \(report.assetsCopied) assets (\(report.bytesCopied / 1_000_000) MB of originals, each checked against its hash); "
                + "\(report.assetsAlreadyThere) were there already.")
        return 0
    }
}
