import Foundation

/// Whether a file stops before its format says it does. libvips' error text cannot say so
/// reliably: its error buffer is shared by every thread, so under load a failure may read
/// another file's message. The file's own structure can, and gives the same answer every time.
enum Truncation {
    /// True only when the structure is readable and shows the end missing; a file whose
    /// structure is itself broken is not called truncated (it is corrupt).
    static func isTruncated(_ path: String, _ format: ImageFormat) -> Bool {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return false }
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case .jpeg: return jpegMissesEnd(bytes)
            case .png: return pngMissesEnd(bytes)
            case .gif: return gifMissesEnd(bytes)
            case .webp: return riffSize(bytes) > bytes.count
            case .heif, .avif: return boxesOverrun(bytes)
            case .tiff: return false
            }
        }
    }

    /// A JPEG's scan data ends with an EOI marker. Its segments are walked to the first start of
    /// scan; an EOI must follow it (an EXIF thumbnail's earlier EOI does not count, and data
    /// after the EOI, such as a motion photo's movie, is allowed).
    private static func jpegMissesEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 2
        while true {
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF else { return false }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return false }
            offset += 2 + length
        }
        var index = bytes.count - 2
        while index > offset {
            if bytes[index] == 0xFF && bytes[index + 1] == 0xD9 { return false }
            index -= 1
        }
        return true
    }

    /// GIF blocks, walked from the header, run past the end before the trailer. Bytes after
    /// the trailer are allowed, as some encoders write them.
    private static func gifMissesEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 13 else { return true }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3B:
                return false
            case 0x21:
                offset += 2
            case 0x2C:
                guard offset + 10 <= bytes.count else { return true }
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 0x07) + 1) }
                offset += 1
            default:
                return false
            }
            // Data sub-blocks, each led by its length, up to an empty one.
            while offset < bytes.count && bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
            offset += 1
        }
        return true
    }

    /// PNG chunks, walked from the signature, run past the end before reaching IEND.
    private static func pngMissesEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 8
        while offset + 8 <= bytes.count {
            guard isFourCC(bytes, offset + 4) else { return false }
            let length = Int(bigEndian32(bytes, offset))
            if bytes[offset + 4] == 0x49, bytes[offset + 5] == 0x45, bytes[offset + 6] == 0x4E, bytes[offset + 7] == 0x44 {
                return false
            }
            offset += 12 + length
        }
        return true
    }

    private static func riffSize(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard bytes.count >= 8 else { return .max }
        return 8 + (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << (8 * $1) }
    }

    /// Top-level ISO boxes, walked in order, run past the end of the file.
    private static func boxesOverrun(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset + 8 <= bytes.count {
            guard isFourCC(bytes, offset + 4) else { return false }
            var size = Int(bigEndian32(bytes, offset))
            if size == 1 {
                guard offset + 16 <= bytes.count else { return true }
                size = Int(bigEndian32(bytes, offset + 8)) << 32 | Int(bigEndian32(bytes, offset + 12))
            } else if size == 0 {
                return false
            }
            guard size >= 8 else { return false }
            offset += size
        }
        return offset > bytes.count
    }

    private static func isFourCC(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        (0..<4).allSatisfy { (0x20...0x7E).contains(bytes[offset + $0]) }
    }

    private static func bigEndian32(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }
}
