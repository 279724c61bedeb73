/// The image formats CameraRoll decodes: an allow-list, each mapped to exactly one libvips loader.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, gif, heif, avif, tiff

    /// The number of leading bytes `sniff` needs.
    public static let sniffLength = 64

    /// The format named by the file's magic bytes, or nil when it is none of ours. File names and
    /// declared content types are never consulted: they are whatever the sender says.
    public static func sniff(_ header: some Collection<UInt8>) -> ImageFormat? {
        let bytes = Array(header.prefix(sniffLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        // TIFF is here for the previews inside camera raw files (DNG).
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        return isoBrand(bytes)
    }

    /// HEIF and AVIF share the ISO base media `ftyp` box with MP4 and MOV; the brands tell them
    /// apart. A still-image brand anywhere in the box wins only if the major brand is not a movie's.
    private static func isoBrand(_ bytes: [UInt8]) -> ImageFormat? {
        ByteReader.reading(bytes) { header -> ImageFormat? in
            guard header.matches("ftyp".utf8, at: 4), header.has(16, at: 0), let boxSize = header.integer(UInt32.self, at: 0) else {
                return nil
            }
            let major = header.fourCC(at: 8) ?? ""
            // The brands after the major brand and its version, as far as the box and the header go.
            let end = min(Int(max(boxSize, 16)), header.count)
            let brands = [major] + stride(from: 16, to: end - 3, by: 4).compactMap { header.fourCC(at: $0) }
            if avifBrands.contains(major) { return .avif }
            if heifBrands.contains(major) { return brands.contains(where: avifBrands.contains) ? .avif : .heif }
            if movieBrands.contains(major) { return nil }
            if brands.contains(where: avifBrands.contains) { return .avif }
            if brands.contains(where: heifBrands.contains) { return .heif }
            return nil
        }
    }

    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
    private static let movieBrands: Set<String> = ["isom", "iso2", "mp41", "mp42", "qt  ", "M4V ", "avc1", "3gp4", "3gp5", "3g2a"]

    /// The media type browsers know the format by.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .tiff: "image/tiff"
        }
    }
}
