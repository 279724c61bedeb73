/// Untrusted bytes, read only through offsets that are checked: a size or offset a file states
/// can be anything up to 2⁶⁴ − 1, and `offset + size` in plain `Int` arithmetic traps on overflow,
/// which takes the whole server down. Every read here answers nil instead of trapping, so a
/// parser of ours that walks a file's structure uses nothing else to index it.
package struct ByteReader {
    private let bytes: UnsafeRawBufferPointer

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    package var count: Int { bytes.count }

    /// `offset + length`, when neither is negative, the sum does not overflow and it stays within
    /// the bytes (the end itself included).
    package func offset(_ offset: Int, plus length: Int) -> Int? {
        guard offset >= 0, length >= 0 else { return nil }
        let (end, overflow) = offset.addingReportingOverflow(length)
        return overflow || end > count ? nil : end
    }

    /// The same for a length as a file states it, which may not even fit an `Int`.
    package func offset(_ offset: Int, plus length: some BinaryInteger) -> Int? {
        Int(exactly: length).flatMap { self.offset(offset, plus: $0) }
    }

    package func has(_ length: Int, at offset: Int) -> Bool { self.offset(offset, plus: length) != nil }

    package func byte(at offset: Int) -> UInt8? {
        has(1, at: offset) ? bytes[offset] : nil
    }

    /// An unsigned integer of `T`'s width stored at `offset`, most significant byte first unless
    /// `bigEndian` is false.
    package func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, at offset: Int, bigEndian: Bool = true) -> T? {
        let width = T.bitWidth / 8
        guard has(width, at: offset) else { return nil }
        var value: T = 0
        for index in 0..<width {
            let byte = T(bytes[offset + (bigEndian ? index : width - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    /// Four printable ASCII characters (an ISO box type, a PNG or RIFF chunk name), or nil.
    package func fourCC(at offset: Int) -> String? {
        guard has(4, at: offset) else { return nil }
        let characters = (offset..<offset + 4).map { bytes[$0] }
        guard characters.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: characters, as: UTF8.self)
    }

    package func matches(_ literal: some Collection<UInt8>, at offset: Int) -> Bool {
        guard has(literal.count, at: offset) else { return false }
        return zip(offset..., literal).allSatisfy { bytes[$0] == $1 }
    }

    /// The bytes from `offset` on, `length` of them.
    package func slice(at offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        guard let end = self.offset(offset, plus: length) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}

extension ByteReader {
    /// Reads bytes held in an array; the reader exists only inside `body`.
    package static func reading<T>(_ bytes: [UInt8], _ body: (ByteReader) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes { try body(ByteReader($0)) }
    }
}
