/// Percent-encoding as Signature Version 4 defines it: RFC 3986's unreserved characters stay, every
/// other UTF-8 byte becomes `%XY` in upper case. Foundation's encoders keep more (`+`, `$`, `'`…)
/// and some write a space as `+`, either of which makes S3 compute another signature.
enum URIEncoding {
    /// A query parameter's name or value: a `/` is encoded too.
    static func component(_ text: String) -> String {
        encode(text, keeping: nil)
    }

    /// A path: each segment is encoded once and the `/` between them stay. S3, unlike other
    /// services, neither encodes the path twice nor removes `.`, `..` or repeated slashes.
    static func path(_ text: String) -> String {
        encode(text, keeping: UInt8(ascii: "/"))
    }

    private static func encode(_ text: String, keeping extra: UInt8?) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || byte == extra {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(digits[Int(byte >> 4)])
                encoded.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
