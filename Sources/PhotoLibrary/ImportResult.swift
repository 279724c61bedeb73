/// What an import did: the asset, and whether it was already in the library.
public struct ImportResult: Sendable {
    public var asset: Asset
    /// The same bytes were imported before; `asset` is that earlier asset.
    public var isDuplicate: Bool
}
