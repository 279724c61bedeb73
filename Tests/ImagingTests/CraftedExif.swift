/// An EXIF block made by hand, for the malformed values no camera in the corpus writes: IFD0,
/// then an EXIF IFD and a GPS IFD that IFD0 points to when they have entries, then the values
/// that do not fit in their entries.
struct CraftedExif {
    enum Value {
        case shorts([UInt16])
        case longs([UInt32])
        case rationals([(UInt32, UInt32)])
        case signedRationals([(Int32, Int32)])
        case ascii(String)

        var type: UInt16 {
            switch self {
            case .shorts: 3
            case .longs: 4
            case .rationals: 5
            case .signedRationals: 10
            case .ascii: 2
            }
        }

        var count: Int {
            switch self {
            case .shorts(let values): values.count
            case .longs(let values): values.count
            case .rationals(let values): values.count
            case .signedRationals(let values): values.count
            case .ascii(let text): text.utf8.count + 1
            }
        }

        func bytes(bigEndian: Bool) -> [UInt8] {
            switch self {
            case .shorts(let values): values.flatMap { CraftedExif.bytes($0, bigEndian) }
            case .longs(let values): values.flatMap { CraftedExif.bytes($0, bigEndian) }
            case .rationals(let values): values.flatMap { CraftedExif.bytes($0.0, bigEndian) + CraftedExif.bytes($0.1, bigEndian) }
            case .signedRationals(let values):
                values.flatMap {
                    CraftedExif.bytes(UInt32(bitPattern: $0.0), bigEndian) + CraftedExif.bytes(UInt32(bitPattern: $0.1), bigEndian)
                }
            case .ascii(let text): Array(text.utf8) + [0]
            }
        }
    }

    /// An entry as written: `type` and `count` say what its value claims to be, whatever it is.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var value: Value

        init(_ tag: UInt16, _ value: Value, type: UInt16? = nil, count: Int? = nil) {
            self.tag = tag
            self.value = value
            self.type = type ?? value.type
            self.count = count ?? value.count
        }
    }

    var bigEndian = true
    var ifd0: [Entry] = []
    var exif: [Entry] = []
    var gps: [Entry] = []

    /// The block as libvips gives a JPEG's, after `Exif\0\0`.
    var bytes: [UInt8] {
        let size = { (entries: Int) in 2 + 12 * entries + 4 }
        let pointers: [UInt16] = [(0x8769, exif), (0x8825, gps)].filter { !$0.1.isEmpty }.map(\.0)
        let exifStart = 8 + size(ifd0.count + pointers.count)
        let gpsStart = exifStart + (exif.isEmpty ? 0 : size(exif.count))
        let starts: [UInt16: Int] = [0x8769: exifStart, 0x8825: gpsStart]
        let first = ifd0 + pointers.map { Entry($0, .longs([UInt32(starts[$0] ?? 0)])) }
        var data = gpsStart + (gps.isEmpty ? 0 : size(gps.count))

        var head = Array("Exif\0\0".utf8) + Array((bigEndian ? "MM" : "II").utf8) + Self.bytes(UInt16(42), bigEndian)
        head += Self.bytes(UInt32(8), bigEndian)
        var tail: [UInt8] = []
        for directory in [first, exif, gps] where !directory.isEmpty {
            head += Self.bytes(UInt16(directory.count), bigEndian)
            for entry in directory {
                head += Self.bytes(entry.tag, bigEndian) + Self.bytes(entry.type, bigEndian) + Self.bytes(UInt32(entry.count), bigEndian)
                let value = entry.value.bytes(bigEndian: bigEndian)
                if value.count <= 4 {
                    head += value + [UInt8](repeating: 0, count: 4 - value.count)
                } else {
                    head += Self.bytes(UInt32(data), bigEndian)
                    tail += value
                    data += value.count
                }
            }
            head += Self.bytes(UInt32(0), bigEndian)
        }
        return head + tail
    }

    static func bytes<T: FixedWidthInteger>(_ value: T, _ bigEndian: Bool) -> [UInt8] {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        return withUnsafeBytes(of: ordered) { Array($0) }
    }
}
