internal import CZlib
import Foundation

/// What a file's own structure says about it: whether it stops before its format says it does,
/// and whether its checksums hold. The decoders under libvips only warn about either (libpng's
/// CRC errors, libnsgif's early end, libheif reading lazily), and libvips cannot tell which
/// file a warning was about; the structure gives the same answer every time.
///
/// JPEG is not walked here: libjpeg itself judges its data (`JPEGDamage`). WebP is judged by
/// libwebpdemux. PNG chunks, GIF blocks and ISO boxes are walked by us because no library we
/// link reports completeness without decoding every pixel; each walk reads through `ByteReader`.
package enum FileStructure {
    package enum Problem: Equatable {
        case truncated
        case checksumMismatch
        /// Sizes no such file can have (an ISO box smaller than its own header).
        case malformed
    }

    /// Truncated only when the structure is readable and shows the end missing; a file whose
    /// structure is itself broken is left to the decoder.
    static func problem(_ path: String, _ format: ImageFormat) -> Problem? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { problem(in: ByteReader($0), format) }
    }

    package static func problem(in file: ByteReader, _ format: ImageFormat) -> Problem? {
        switch format {
        case .png: return pngProblem(file)
        case .gif: return gifMissesEnd(file) ? .truncated : nil
        case .webp: return WebPContainer.isTruncated(file) ? .truncated : nil
        case .heif, .avif: return boxProblem(file)
        case .jpeg, .tiff: return nil
        }
    }

    /// GIF blocks, walked from the header, run past the end before the trailer. Bytes after
    /// the trailer are allowed, as some encoders write them.
    private static func gifMissesEnd(_ file: ByteReader) -> Bool {
        guard let flags = file.byte(at: 10), file.has(13, at: 0) else { return true }
        var offset: Int? = file.offset(13, plus: colourTableSize(flags))
        while let position = offset, let introducer = file.byte(at: position) {
            switch introducer {
            case 0x3B:
                return false
            case 0x21:
                // An extension: its label, then data sub-blocks.
                offset = file.offset(position, plus: 2)
            case 0x2C:
                // An image: its descriptor, a local colour table, the LZW code size, then data sub-blocks.
                guard let imageFlags = file.byte(at: position + 9) else { return true }
                offset = file.offset(position, plus: 10).flatMap { file.offset($0, plus: colourTableSize(imageFlags)) }
                    .flatMap { file.offset($0, plus: 1) }
            default:
                return false
            }
            offset = offset.flatMap { skippingSubBlocks(file, from: $0) }
        }
        return true
    }

    /// A colour table's size in bytes from the packed field that announces it.
    private static func colourTableSize(_ flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }

    /// The offset after a run of data sub-blocks (each led by its length) and the empty one
    /// that ends them; nil when they run past the end.
    private static func skippingSubBlocks(_ file: ByteReader, from start: Int) -> Int? {
        var offset = start
        while let length = file.byte(at: offset) {
            guard let next = file.offset(offset, plus: Int(length) + 1) else { return nil }
            if length == 0 { return next }
            offset = next
        }
        return nil
    }

    /// PNG chunks, walked from the signature: one runs past the end before IEND (truncated), or
    /// a chunk's CRC (zlib's CRC-32 of its type and data) does not match (damaged).
    private static func pngProblem(_ file: ByteReader) -> Problem? {
        var offset = 8
        while file.has(8, at: offset) {
            guard let type = file.fourCC(at: offset + 4), let length = file.integer(UInt32.self, at: offset) else { return nil }
            guard let crcOffset = file.offset(offset + 8, plus: length), let stored = file.integer(UInt32.self, at: crcOffset),
                let covered = file.slice(at: offset + 4, length: crcOffset - offset - 4)
            else { return .truncated }
            if crc32(covered) != stored { return .checksumMismatch }
            if type == "IEND" { return nil }
            offset = crcOffset + 4
        }
        return .truncated
    }

    private static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32_z(0, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
    }

    /// Top-level ISO boxes, walked in order: one runs past the end of the file (truncated), or is
    /// smaller than its own header (malformed). A box's size is its 32-bit field, or with size 1
    /// the 64-bit field after the type, or with size 0 the rest. Every box is walked whatever its
    /// type says (the `ftyp` the sniffer read has made this an ISO file): libheif 1.19.7 aborts
    /// on either kind of box, as `make fuzz` found, instead of refusing the file.
    private static func boxProblem(_ file: ByteReader) -> Problem? {
        var offset = 0
        while file.has(8, at: offset) {
            guard let size32 = file.integer(UInt32.self, at: offset) else { return nil }
            let size: UInt64
            switch size32 {
            case 0:
                return nil
            case 1:
                guard let size64 = file.integer(UInt64.self, at: offset + 8) else { return .truncated }
                guard size64 >= 16 else { return .malformed }
                size = size64
            default:
                guard size32 >= 8 else { return .malformed }
                size = UInt64(size32)
            }
            guard let next = file.offset(offset, plus: size) else { return .truncated }
            offset = next
        }
        return nil
    }
}
