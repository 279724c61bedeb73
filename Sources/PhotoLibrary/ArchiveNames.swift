import Foundation

/// The names of an archive's files: each asset's original file name, made safe to unpack on any
/// system and unique within the archive as file systems that ignore case and Unicode
/// normalisation (macOS', Windows') compare names: `IMG_0001.JPG`, then `IMG_0001 (2).JPG`.
struct ArchiveNames {
    private var taken: Set<String> = []

    /// The longest name Linux's file systems take, in UTF-8 bytes.
    static let maxBytes = 255
    /// Characters no name keeps: separators, and what Windows refuses in a name.
    private static let refused: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// The next file's name: `original` cleaned, or `fallback` when it leaves nothing.
    mutating func name(_ original: String?, otherwise fallback: String) -> String {
        let name = Self.cleaned(original) ?? fallback
        // An extension is a short last part; the name's copies are told apart before it.
        let dot = name.lastIndex(of: ".").flatMap { $0 > name.startIndex && name.distance(from: $0, to: name.endIndex) <= 10 ? $0 : nil }
        let (stem, fileExtension) = dot.map { (String(name[..<$0]), String(name[$0...])) } ?? (name, "")
        for copy in 1... {
            let candidate = Self.fitted(stem, copy == 1 ? fileExtension : " (\(copy))\(fileExtension)")
            if taken.insert(candidate.precomposedStringWithCanonicalMapping.lowercased()).inserted { return candidate }
        }
        preconditionFailure("copies run out")
    }

    /// The name with refused and control characters as `_` and no spaces at either end; nil when
    /// nothing is left but dots, which would name a folder.
    static func cleaned(_ name: String?) -> String? {
        guard let name else { return nil }
        let scalars = name.unicodeScalars.map { scalar in
            refused.contains(scalar) || scalar.properties.generalCategory == .control ? "_" : scalar
        }
        let cleaned = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
        return cleaned.allSatisfy { $0 == "." } ? nil : cleaned
    }

    /// `stem` shortened a character at a time until it fits `maxBytes` with `tail` after it.
    private static func fitted(_ stem: String, _ tail: String) -> String {
        var stem = Substring(stem)
        while !stem.isEmpty, stem.utf8.count + tail.utf8.count > maxBytes { stem.removeLast() }
        return stem + tail
    }
}

extension AssetFormat {
    /// The extension a file of this format usually has, for an asset that came without a name.
    var fileExtension: String {
        switch self {
        case .image(.jpeg): "jpg"
        case .image(.heif): "heic"
        case .image(.tiff): "tif"
        case .image(let format): format.rawValue
        // Matroska here is most often a browser's WebM recording, which is also how it is served.
        case .movie(.matroska): "webm"
        case .movie(let container): container.rawValue
        }
    }
}
