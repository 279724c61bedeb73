import Foundation

/// File names as people's computers take them. A name comes from a client (an upload's
/// `filename`, `X-Filename`, an imported file's own) and goes back out as a file: an entry of a
/// ZIP archive, or an original's `Content-Disposition`, which Windows, macOS and Linux each read
/// their own way.
package enum PortableFilename {
    /// The longest name Linux's file systems take, in UTF-8 bytes.
    package static let maxBytes = 255

    /// The name a client gave, as the library keeps it: its last part (a Windows client may send
    /// a whole path, with backslashes), without control characters nor the invisible ones that
    /// turn the text's direction (with U+202E, `photo‮gpj.exe` shows as `photoexe.jpg`), trimmed,
    /// at most `maxBytes`. nil when nothing is left but dots, which name folders.
    package static func kept(_ given: String) -> String? {
        let last = given.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last.map(String.init) ?? ""
        let scalars = last.unicodeScalars.filter { !isInvisible($0) }
        let name = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
        let (stem, fileExtension) = parts(name)
        let kept = fitted(stem, fileExtension)
        // Checked once cut: a dot and a long run of spaces is only a dot then.
        return kept.unicodeScalars.allSatisfy { $0 == "." } ? nil : kept
    }

    /// A kept name made a file that is the same on any desktop: the characters Windows refuses
    /// as `_`, no dots or spaces at either end (Windows drops those at the end, a dot at the
    /// start hides a file elsewhere), never a Windows device's name (`nul`, `COM1.jpg`, which
    /// open the device there), and with its format's extension after any other (`invoice.exe`
    /// becomes `invoice.exe.jpg`, so that a picture never opens as a program). nil when nothing
    /// is left.
    package static func forDesktop(_ name: String, format: AssetFormat) -> String? {
        // Scalar by scalar, as file systems read names: a character that joins the one after it
        // (U+070F before a dot) hides that dot from a walk over Characters.
        var scalars = name.unicodeScalars.map { refused.contains($0) || isInvisible($0) ? "_" : $0 }[...]
        while let first = scalars.first, isTrimmed(first) { scalars.removeFirst() }
        while let last = scalars.last, isTrimmed(last) { scalars.removeLast() }
        guard !scalars.isEmpty else { return nil }
        var (stem, fileExtension) = parts(String(String.UnicodeScalarView(scalars)))
        if isDevice(stem) { stem = "_" + stem }
        if !format.fileExtensions.contains(fileExtension.dropFirst().lowercased()) {
            (stem, fileExtension) = (stem + fileExtension, "." + format.fileExtension)
        }
        return fitted(stem, fileExtension)
    }

    /// A name's stem and its extension (a short last part, with its dot; "" when there is none).
    static func parts(_ name: String) -> (stem: String, fileExtension: String) {
        let scalars = name.unicodeScalars
        guard let dot = scalars.lastIndex(of: "."), dot > scalars.startIndex, scalars.distance(from: dot, to: scalars.endIndex) <= 10
        else { return (name, "") }
        return (String(scalars[..<dot]), String(scalars[dot...]))
    }

    /// `stem` shortened a character at a time until it fits `maxBytes` with `tail` after it (a scalar
    /// at a time when its first character alone is longer: a letter under hundreds of marks); a cut
    /// leaves no spaces or dots at its end, which would be trimmed from the name another time.
    static func fitted(_ stem: String, _ tail: String) -> String {
        guard stem.utf8.count + tail.utf8.count > maxBytes else { return stem + tail }
        let room = maxBytes - tail.utf8.count
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for character in stem {
            guard bytes + character.utf8.count <= room else { break }
            kept.append(contentsOf: character.unicodeScalars)
            bytes += character.utf8.count
        }
        if kept.isEmpty {
            for scalar in stem.unicodeScalars {
                guard bytes + UTF8.width(scalar) <= room else { break }
                kept.append(scalar)
                bytes += UTF8.width(scalar)
            }
        }
        while let last = kept.last, isTrimmed(last) { kept.removeLast() }
        return String(kept) + tail
    }

    /// What a name may not start or end with: a dot, or white space.
    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "." || scalar.properties.isWhitespace
    }

    /// Characters Windows refuses in a name, and the separators of every system.
    private static let refused: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.isBidiControl || scalar == "\u{FEFF}"
    }

    /// Names Windows gives to devices, whatever the extension after them, in any case; a
    /// superscript digit counts as a digit there.
    private static func isDevice(_ stem: String) -> Bool {
        let base = stem.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? stem
        let upper = base.trimmingCharacters(in: .whitespaces).uppercased()
        if ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(upper) { return true }
        guard upper.count == 4, ["COM", "LPT"].contains(upper.prefix(3)), let digit = upper.last else { return false }
        return digit.isNumber && (digit.isASCII || "¹²³".contains(digit))
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

    /// Every extension that names a file of this format, lowercased.
    var fileExtensions: Set<String> {
        switch self {
        case .image(.jpeg): ["jpg", "jpeg", "jpe", "jfif"]
        case .image(.heif): ["heic", "heif", "hif"]
        // DNG is TIFF underneath, and so read.
        case .image(.tiff): ["tif", "tiff", "dng"]
        case .image(let format): [format.rawValue]
        case .movie(.mp4): ["mp4", "m4v", "mov", "qt", "3gp", "3g2"]
        case .movie(.matroska): ["webm", "mkv"]
        case .movie(.avi): ["avi"]
        }
    }
}
