import Foundation

/// What a file's own structure says about it: whether it stops before its format says it does,
/// and whether its checksums hold. Decoders cannot be trusted to say so: libjpeg reports a
/// missing end only as a warning, libvips' error text is shared by every thread, and under load
/// the same damaged file was seen to decode one time and fail the next. The structure gives the
/// same answer every time.
enum FileStructure {
    enum Problem: Equatable {
        case truncated
        case checksumMismatch
    }

    /// Truncated only when the structure is readable and shows the end missing; a file whose
    /// structure is itself broken is left to the decoder.
    static func problem(_ path: String, _ format: ImageFormat) -> Problem? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { raw -> Problem? in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case .jpeg: return jpegMissesEnd(bytes) ? .truncated : nil
            case .png: return pngProblem(bytes)
            case .gif: return gifMissesEnd(bytes) ? .truncated : nil
            case .webp: return riffSize(bytes) > bytes.count ? .truncated : nil
            case .heif, .avif: return boxesOverrun(bytes) ? .truncated : nil
            case .tiff: return nil
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

    /// PNG chunks, walked from the signature: one runs past the end before IEND (truncated), or
    /// a chunk's CRC does not match its type and data (damaged).
    private static func pngProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
        var offset = 8
        while offset + 8 <= bytes.count {
            guard isFourCC(bytes, offset + 4) else { return nil }
            let length = Int(bigEndian32(bytes, offset))
            guard offset + 12 + length <= bytes.count else { return .truncated }
            let stored = bigEndian32(bytes, offset + 8 + length)
            if CRC32.checksum(UnsafeBufferPointer(rebasing: bytes[offset + 4..<offset + 8 + length])) != stored {
                return .checksumMismatch
            }
            if bytes[offset + 4] == 0x49, bytes[offset + 5] == 0x45, bytes[offset + 6] == 0x4E, bytes[offset + 7] == 0x44 {
                return nil
            }
            offset += 12 + length
        }
        return .truncated
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
