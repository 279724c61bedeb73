import Foundation
import Storage

extension MediaJobs {
    /// The playable rendition through the queue servers share: this server's copy when it has
    /// one, else the one any server made (fetched from the blob store into the derivative
    /// cache), else queued and waited for, whoever makes it.
    func sharedRendition(of asset: Asset, _ queue: RenditionQueue) async throws(LibraryError) -> DerivativeCache.CachedFile {
        let (hash, key) = (asset.blobHash, DerivativeKey.playable)
        while true {
            let seen = queue.news.rings
            if let file = await lane.run({ [cache] in cache.lookup(hash, key) }) { return file }
            switch try await storage({ () async throws(StorageError) in try await queue.standing(hash, key) }) {
            case .done(let output):
                let copy = try await files { [blobs, staging] () throws(StorageError) in
                    try staging.stage(copying: try blobs.localFile(output))
                }
                return try await lane.run { [cache, staging] () throws(LibraryError) in
                    do throws(LibraryError) {
                        return try cache.adopt(hash, key, from: copy.path)
                    } catch {
                        staging.discard(copy)
                        throw error
                    }
                }
            case .failed(let error): throw error
            case .none: try await storage { () async throws(StorageError) in try await queue.enqueue(hash, key) }
            case .queued, .running: await queue.news.wait(after: seen, timeout: .seconds(1))
            }
        }
    }

    /// Makes a job this server's worker claimed: the rendition as `jobs` makes it here, its
    /// lease renewed with its progress while ffmpeg runs, the output stored in the blob store and
    /// the job completed, all under the claim's attempt. A database that fails on the way leaves
    /// the job to the lease: it is claimed again when the lease runs out.
    func make(_ claim: RenditionQueue.Claim, on queue: RenditionQueue) async {
        let found: String?
        do {
            found = try await read { connection throws(StorageError) in
                // Anyone's asset of the bytes describes them.
                try connection.query("SELECT id FROM assets WHERE blob_hash = ? LIMIT 1", [claim.hash]).first?.text("id")
            }
        } catch {
            return
        }
        guard let id = found, let asset = try? await catalog.asset(id, owner: nil), claim.derivative == DerivativeKey.playable,
            let job = try? renditionJob(asset)
        else {
            _ = try? await queue.fail(claim, LibraryError(.notFound, "There is no movie with that original."))
            return
        }
        await jobs.forgetFailures(of: claim.hash)
        let renewing = Task { [jobs] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(queue.lease / 3))
                guard !Task.isCancelled else { return }
                let progress: Double = if case .running(let fraction) = await jobs.state(job.key) { fraction } else { 0 }
                if (try? await queue.renew(claim, progress: progress)) == false { return }
            }
        }
        defer { renewing.cancel() }
        do throws(LibraryError) {
            let file = try await jobs.run(job.key, keptWhenAbandoned: true, job.make)
            let staged = try await files { [staging] () throws(StorageError) in try staging.stage(copying: file.path) }
            let completed: Bool
            do {
                completed = try await storeBlob(staged) { connection throws(StorageError) in
                    try RenditionQueue.complete(claim, output: staged.hash, connection)
                }
            } catch {
                await discard(staged)
                throw error
            }
            if !completed {
                options.log(
                    "rendition of asset \(asset.id): attempt \(claim.attempt) lost its claim before it was done; its output is not used")
            }
        } catch {
            _ = try? await queue.fail(claim, error)
        }
    }
}
