internal import CZlib

/// The CRC-32 of ZIP's records (ISO 3309, as gzip and PNG use it), from zlib, which the program
/// links for libvips already.
struct CRC32: Sendable, Equatable {
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        value = UInt32(crc32_z(uLong(value), bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
    }
}
