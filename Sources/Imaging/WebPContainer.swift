/// libvips 8.14.1's webpsave writes an EXIF chunk even when told to strip metadata, so the
/// RIFF container is rewritten without its EXIF, XMP and ICC chunks (pixels are sRGB by then).
enum WebPContainer {
    private static let droppedChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// VP8X feature flags for ICC, EXIF and XMP.
    private static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    static func strippingMetadata(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) else {
            return bytes
        }
        var body: [UInt8] = Array("WEBP".utf8)
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(littleEndian32(bytes, at: offset + 4))
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count else { return bytes }
            if !droppedChunks.contains(name) {
                var chunk = Array(bytes[offset..<end])
                if name == "VP8X" && chunk.count > 8 { chunk[8] &= ~metadataFlags }
                body += chunk
            }
            offset = end
        }
        let riffSize = UInt32(body.count)
        return Array("RIFF".utf8) + withUnsafeBytes(of: riffSize.littleEndian, Array.init) + body
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
