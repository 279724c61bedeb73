internal import Glibc

/// HTTP header fields: names compared without case (ASCII case, as field names are ASCII
/// tokens), a name may repeat, order is kept.
///
/// All fields share one byte buffer, each stored as its name's and its value's lengths, then the
/// name and the value, both followed by a NUL. So a request's headers cost one allocation however
/// many the client sends, a value becomes a `String` only when someone asks for it, looking a name
/// up allocates nothing, and libmicrohttpd takes response headers straight from the buffer.
public struct Headers: Sendable, Equatable, Sequence {
    private var storage: [UInt8] = []

    public init(_ fields: [(String, String)] = []) {
        for (name, value) in fields { add(name, value) }
    }

    /// The first value of a field.
    public subscript(_ name: String) -> String? {
        get {
            storage.withUnsafeBytes { bytes in
                Self.first(name, in: bytes).map { Self.text(bytes, $0.value) }
            }
        }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Every value of a field, in order.
    public func values(_ name: String) -> [String] {
        storage.withUnsafeBytes { bytes in
            var values: [String] = []
            var offset = 0
            while offset < bytes.count {
                let field = Self.field(in: bytes, at: offset)
                if Self.matches(name, bytes, field.name) { values.append(Self.text(bytes, field.value)) }
                offset = field.end
            }
            return values
        }
    }

    public mutating func add(_ name: String, _ value: String) {
        var name = name
        var value = value
        name.withUTF8 { name in
            value.withUTF8 { value in append(name, value) }
        }
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        FieldIterator(storage: storage)
    }

    public static func == (lhs: Headers, rhs: Headers) -> Bool {
        // The layout is a function of the fields, so equal fields are equal bytes.
        lhs.storage == rhs.storage
    }

    /// Whether any field has this name.
    func contains(_ name: String) -> Bool {
        storage.withUnsafeBytes { Self.first(name, in: $0) != nil }
    }

    /// Appends a field from C strings, as libmicrohttpd hands request headers over.
    mutating func add(_ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>?) {
        let bytes = { (text: UnsafePointer<CChar>) in
            UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        }
        append(bytes(name), value.map(bytes) ?? UnsafeBufferPointer(start: nil, count: 0))
    }

    /// Every field as NUL-terminated name and value, valid only inside `body`. C cuts a value at
    /// its first NUL byte, if a handler put one in.
    func withCStrings(_ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Void) {
        storage.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let field = Self.field(in: bytes, at: offset)
                let base = bytes.baseAddress!
                body(
                    (base + field.name.lowerBound).assumingMemoryBound(to: CChar.self),
                    (base + field.value.lowerBound).assumingMemoryBound(to: CChar.self))
                offset = field.end
            }
        }
    }

    // MARK: The buffer

    /// Where one field's parts lie in the buffer.
    private struct Field {
        let name: Range<Int>
        let value: Range<Int>
        /// Where the next field starts.
        let end: Int
    }

    private static let lengthSize = MemoryLayout<UInt32>.size

    /// Typed buffers, which arrays copy with `memcpy` (raw ones byte by byte).
    private mutating func append(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        // Room for a typical set of fields at once, then doubling: one allocation for most requests.
        let needed = storage.count + 2 * Self.lengthSize + name.count + value.count + 2
        if needed > storage.capacity { storage.reserveCapacity(Swift.max(needed, 2 * storage.capacity, 512)) }
        var nameCount = UInt32(truncatingIfNeeded: name.count)
        var valueCount = UInt32(truncatingIfNeeded: value.count)
        withUnsafeBytes(of: &nameCount) { storage.append(contentsOf: $0) }
        withUnsafeBytes(of: &valueCount) { storage.append(contentsOf: $0) }
        storage.append(contentsOf: name)
        storage.append(0)
        storage.append(contentsOf: value)
        storage.append(0)
    }

    private mutating func remove(_ name: String) {
        guard contains(name) else { return }
        var kept: [UInt8] = []
        kept.reserveCapacity(storage.count)
        storage.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let field = Self.field(in: bytes, at: offset)
                if !Self.matches(name, bytes, field.name) {
                    let start = (bytes.baseAddress! + offset).assumingMemoryBound(to: UInt8.self)
                    kept.append(contentsOf: UnsafeBufferPointer(start: start, count: field.end - offset))
                }
                offset = field.end
            }
        }
        storage = kept
    }

    private static func field(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Field {
        let nameCount = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        let valueCount = Int(bytes.loadUnaligned(fromByteOffset: offset + lengthSize, as: UInt32.self))
        let nameStart = offset + 2 * lengthSize
        let valueStart = nameStart + nameCount + 1
        return Field(name: nameStart..<nameStart + nameCount, value: valueStart..<valueStart + valueCount, end: valueStart + valueCount + 1)
    }

    private static func first(_ name: String, in bytes: UnsafeRawBufferPointer) -> Field? {
        var offset = 0
        while offset < bytes.count {
            let field = field(in: bytes, at: offset)
            if matches(name, bytes, field.name) { return field }
            offset = field.end
        }
        return nil
    }

    /// ASCII case-insensitive comparison of a name with the bytes of a stored one.
    private static func matches(_ name: String, _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        let utf8 = name.utf8
        guard utf8.count == range.count else { return false }
        var index = range.lowerBound
        for byte in utf8 {
            guard lowercased(byte) == lowercased(bytes[index]) else { return false }
            index += 1
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private struct FieldIterator: IteratorProtocol {
        let storage: [UInt8]
        var offset = 0

        mutating func next() -> (name: String, value: String)? {
            guard offset < storage.count else { return nil }
            return storage.withUnsafeBytes { bytes in
                let field = Headers.field(in: bytes, at: offset)
                offset = field.end
                return (Headers.text(bytes, field.name), Headers.text(bytes, field.value))
            }
        }
    }
}
