import Foundation

/// The names of an archive's files: each the asset's own as any desktop takes it
/// (`PortableFilename.forDesktop`), and unique as Windows and macOS compare names (any case, any
/// Unicode normalisation), a copy numbered before its extension: `IMG_0001 (2).JPG`.
struct ArchiveNames {
    private var taken: Set<String> = []

    /// The next file's name: `original` made safe, or `fallback` when it leaves nothing.
    mutating func name(_ original: String?, format: AssetFormat, otherwise fallback: String) -> String {
        let name = original.flatMap { PortableFilename.forDesktop($0, format: format) } ?? fallback
        let (stem, fileExtension) = PortableFilename.parts(name)
        for copy in 1... {
            let candidate = PortableFilename.fitted(stem, copy == 1 ? fileExtension : " (\(copy))\(fileExtension)")
            if taken.insert(candidate.precomposedStringWithCanonicalMapping.lowercased()).inserted { return candidate }
        }
        preconditionFailure("copies run out")
    }
}
