import Foundation
import Imaging
import Storage

extension Derivatives {
    /// An image as a pick that removes its location or captions (or both) gives it: a JPEG
    /// original with those gone and every other byte as it was (`JPEGRedaction`); any other
    /// format, or a JPEG whose segments do not walk, as its compatible JPEG, which carries no
    /// metadata at all. The original never changes.
    public func redactedImage(of asset: Asset, removingLocation location: Bool, captions: Bool) async throws(LibraryError) -> Derivative {
        guard asset.mediaType == .image else { throw LibraryError(.invalidRequest, "Only images are redacted as images.") }
        guard asset.format == .image(.jpeg), location || captions else { return try await compatibleImage(of: asset) }
        let key = DerivativeKey.redacted(location: location, captions: captions)
        let hash = asset.blobHash
        if let file = await lane.run({ [cache] in cache.lookup(hash, key) }) {
            return Derivative(path: file.path, mimeType: "image/jpeg", size: asset.size, etag: file.etag)
        }
        let original = try await original(of: asset)
        var removal: JPEGRedaction.Removal = []
        if location { removal.insert(.location) }
        if captions { removal.insert(.captions) }
        let stored = try await renders.run { [cache, removal] () throws(LibraryError) -> DerivativeCache.CachedFile? in
            let bytes = try Library.read(original)
            guard let redacted = JPEGRedaction.redacted(bytes, removing: removal) else { return nil }
            return try cache.store(hash, key, redacted)
        }
        guard let stored else { return try await compatibleImage(of: asset) }
        return Derivative(path: stored.path, mimeType: "image/jpeg", size: asset.size, etag: stored.etag)
    }
}
