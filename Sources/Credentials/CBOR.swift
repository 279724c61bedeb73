/// The part of CBOR (RFC 8949) a WebAuthn authenticator writes: unsigned and negative integers,
/// byte and text strings, arrays, maps, false, true and null, each with its length first. What
/// an authenticator never writes is refused: indefinite lengths, tags, floats, nesting deeper than
/// a COSE key needs, and lengths past the input.
public indirect enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// -1 - n, as CBOR writes a negative number.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// In the order written; keys may be of any kind (COSE's are integers).
    case map([Pair])
    case bool(Bool)
    case null

    public struct Pair: Sendable, Equatable {
        public var key: CBOR
        public var value: CBOR
    }

    /// The value a map holds under `key`.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// An integer key as COSE writes them (`1`, `-2`).
    public subscript(key: Int) -> CBOR? { self[CBOR(key)] }

    /// A text key as an attestation object writes them (`"authData"`).
    public subscript(key: String) -> CBOR? { self[.text(key)] }

    public init(_ number: Int) { self = number >= 0 ? .unsigned(UInt64(number)) : .negative(UInt64(-1 - number)) }

    /// The integer it is, when it fits.
    public var integer: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The one item `bytes` holds, all of them.
    public static func decode(_ bytes: [UInt8]) throws(CredentialsError) -> CBOR {
        var reader = Reader(bytes: bytes[...])
        let item = try reader.item(depth: 0)
        guard reader.bytes.isEmpty else { throw damaged("bytes follow its one item") }
        return item
    }

    /// The item `bytes` begins with, and what follows it (an authenticator's data goes on after
    /// its COSE key with its extensions).
    public static func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(CredentialsError) -> (CBOR, rest: ArraySlice<UInt8>) {
        var reader = Reader(bytes: bytes)
        let item = try reader.item(depth: 0)
        return (item, reader.bytes)
    }

    static let maxDepth = 8

    static func damaged(_ why: String) -> CredentialsError {
        CredentialsError(.invalidPasskey, "The authenticator's answer is not CBOR this server reads: \(why).")
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func item(depth: Int) throws(CredentialsError) -> CBOR {
            guard depth <= CBOR.maxDepth else { throw damaged("it nests too deep") }
            guard let initial = bytes.popFirst() else { throw damaged("it ends early") }
            let (major, info) = (initial >> 5, initial & 0x1f)
            if major == 7 {
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw damaged("a simple value or float other than false, true and null")
                }
            }
            let argument = try self.argument(info)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(Array(try take(argument)))
            case 3:
                guard let text = String(validating: try take(argument), as: UTF8.self) else { throw damaged("a text that is not UTF-8") }
                return .text(text)
            case 4:
                // Each item takes a byte at least: a count past what is left is a lie.
                guard argument <= UInt64(bytes.count) else { throw damaged("an array longer than its input") }
                var items: [CBOR] = []
                for _ in 0..<argument { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                guard argument <= UInt64(bytes.count / 2) else { throw damaged("a map longer than its input") }
                var pairs: [Pair] = []
                for _ in 0..<argument {
                    let key = try item(depth: depth + 1)
                    pairs.append(Pair(key: key, value: try item(depth: depth + 1)))
                }
                return .map(pairs)
            default:
                throw damaged("a tag")
            }
        }

        /// The number an item's first byte starts: in it, or in the 1, 2, 4 or 8 bytes after it.
        private mutating func argument(_ info: UInt8) throws(CredentialsError) -> UInt64 {
            let length: Int
            switch info {
            case 0..<24: return UInt64(info)
            case 24: length = 1
            case 25: length = 2
            case 26: length = 4
            case 27: length = 8
            default: throw damaged("an indefinite or reserved length")
            }
            return try take(UInt64(length)).reduce(0) { $0 << 8 | UInt64($1) }
        }

        private mutating func take(_ count: UInt64) throws(CredentialsError) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count) else { throw damaged("a length past its input") }
            let taken = bytes.prefix(Int(count))
            bytes = bytes.dropFirst(Int(count))
            return taken
        }
    }
}
