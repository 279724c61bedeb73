internal import Glibc

/// Header lines RFC 9112 says to refuse with a 400 that libmicrohttpd 0.9.75 takes. Another
/// parser on the way (a proxy, a cache) would frame such a request differently, and its body
/// could then be read as a request of its own (request smuggling):
///
/// - whitespace between a field name and its colon (`Content-Length : 5`): MHD keeps it in the
///   name, so the field is no Content-Length to MHD and the body is parsed as the next request.
///   MHD refuses it only at strict level -1, which is the tolerant level and drops the Host and
///   request-target checks level 1 makes;
/// - a line starting with whitespace (obs-fold): MHD appends it to the previous field's *name*,
///   copied to fresh pool memory, so `Transfer-Encoding:\r\n chunked` arrives as a field named
///   `Transfer-Encodingchunked` and the chunked body as the next request.
package enum HeaderLine {
    /// Whether a field, as MHD hands it over, came from one line `name: value`: the name is a
    /// token, and the value lies right after it in MHD's read buffer, where the line was parsed in
    /// place (the colon became the NUL that ends the name, and the whitespace after it was skipped).
    /// A folded field's name lies elsewhere, after its value.
    package static func isWellFormed(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>?) -> Bool {
        let length = strlen(name)
        guard length > 0, UnsafeRawBufferPointer(start: name, count: length).allSatisfy(isToken) else { return false }
        // MHD gives every header a value; only fields an application sets itself could lack one.
        guard let value else { return true }
        let gap = (name + length).distance(to: value)
        guard gap >= 1 else { return false }
        return (1..<gap).allSatisfy { name[length + $0] == 0x20 || name[length + $0] == 0x09 }
    }

    /// RFC 9110's tchar.
    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
