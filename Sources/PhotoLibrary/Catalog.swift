import Imaging
import Memo
import Vocabulary

/// What the library holds and how it is arranged: assets, albums, favourites, the trash, edits,
/// listings and their day counts. Its work is SQL alone, on the database's own threads.
public final class Catalog: LibraryPart {
    let stores: LibraryStores
    /// What never changes about an asset (its original's hash, format and size), by id, so that
    /// serving a ready thumbnail needs no database read. A bound on memory; entries are tiny and
    /// cheap to find again.
    let facts = BoundedMemo<String, AssetFacts>(capacity: 100_000)

    /// What search asks for the other names of a place.
    let geocoder: Geocoder

    init(_ stores: LibraryStores, geocoder: Geocoder) {
        self.stores = stores
        self.geocoder = geocoder
    }

    /// Keeps an asset's unchanging facts in memory, for the answers from memory (`Derivatives`).
    func remember(_ asset: Asset) {
        facts.remember(AssetFacts(asset), for: asset.id)
    }
}

/// What never changes about an asset once imported, but its owner when a person leaves
/// (`Catalog.handOver`), which forgets it.
struct AssetFacts: Sendable {
    var blobHash: String
    var format: AssetFormat
    var size: PixelSize
    var owner: Owner

    init(_ asset: Asset) {
        (blobHash, format, size, owner) = (asset.blobHash, asset.format, asset.size, asset.owner)
    }

    /// Whether `owner` may have it answered: their own, or anyone's for nil (a capability's holder).
    func belongs(to owner: Owner?) -> Bool { owner.map { $0 == self.owner } ?? true }
}
