/// `Content-Disposition: attachment` for a file name in any script: `filename` in plain ASCII
/// (what is not printable ASCII, or a quote or backslash, as `_`) for old clients, and `filename*` as RFC 5987's
/// percent-encoded UTF-8, which every current browser prefers.
enum ContentDisposition {
    static func attachment(_ name: String) -> String {
        let ascii = String(name.unicodeScalars.map { (0x20..<0x7F).contains($0.value) && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.utf8.map { byte in
            attributeCharacters.contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    /// RFC 5987's attr-char: the bytes a `filename*` value keeps as they are.
    private static let attributeCharacters = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~".utf8))
}
