import Foundation
import Storage
import Video

extension MediaJobs {
    /// The movie's scrub strip (`VideoTools.scrubStrip`): made at import, and made here for a movie
    /// imported before strips were, or whose strip the cache let go.
    public func scrubStrip(of id: String, owner: Owner?) async throws(LibraryError) -> Derivative {
        let asset = try await movie(id, owner: owner)
        let container = try Library.container(of: asset)
        let job = videoJob(asset, key: DerivativeKey.scrubStrip) { source, output, _ throws(VideoError) in
            try await self.options.video.scrubStrip(source, format: container, to: output)
        }
        let file = try await derivedVideo(job)
        return Derivative(path: file.path, mimeType: "image/jpeg", size: nil, etag: file.etag)
    }

    /// The strip's bytes for an import, or nil when it cannot be made (logged): a movie whose
    /// poster decodes is imported without one rather than refused.
    func importedScrubStrip(_ path: String, container: ContainerFormat) async -> [UInt8]? {
        guard let (strip, fd) = try? await files({ [staging] () throws(StorageError) in try staging.makeTemporaryFile(suffix: ".jpg") })
        else { return nil }
        close(fd)
        defer { unlink(strip) }
        do throws(VideoError) {
            try await options.video.scrubStrip(path, format: container, to: strip)
        } catch {
            _ = Library.reported(error, "a movie's scrub strip", options.log)
            return nil
        }
        return try? await lane.run { () throws(LibraryError) in try Library.read(strip) }
    }
}
