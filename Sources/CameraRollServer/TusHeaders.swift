import Foundation
package import HTTPServer
package import PhotoLibrary
import UTCTime

/// The request headers of the tus 1.0 resumable upload protocol (tus.io), read strictly: a
/// header that does not read is a 400 with a code, never a guess.
package enum TusHeaders {
    static let version = "1.0.0"
    static let extensions = "creation,creation-with-upload,creation-defer-length,termination,expiration,checksum"
    /// The content type of every request body that carries upload bytes.
    static let pieceType = "application/offset+octet-stream"

    /// The one value of a tus header (nil when it is absent). Each is a single field: of two, a
    /// proxy and this server could each take another (one length for the size check, another
    /// for the upload), so a request that sends one twice is refused.
    package static func field(_ request: Request, _ name: String) throws(HTTPError) -> String? {
        let values = request.headers.values(name)
        guard values.count <= 1 else {
            throw HTTPError.badRequest("invalid_header", "\(name) is sent \(values.count) times; send it once.")
        }
        return values.first
    }

    /// `Upload-Length` and `Upload-Offset`: decimal digits only (no sign, no spaces), and no more
    /// than fit.
    package static func count(_ text: String?, _ name: String) throws(HTTPError) -> Int {
        guard let text, !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text)
        else {
            throw HTTPError.badRequest("invalid_header", "\(name) must be a number of bytes.")
        }
        return value
    }

    /// `Upload-Metadata`: comma-separated pairs of a key and its value in Base64, separated by a
    /// space; a key alone has an empty value. Keys are unique, without spaces or commas.
    package static func metadata(_ text: String?) throws(HTTPError) -> [String: [UInt8]] {
        guard let text, !text.isEmpty else { return [:] }
        var pairs: [String: [UInt8]] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let key = parts.first, !key.isEmpty, key.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
                throw HTTPError.badRequest("invalid_metadata", "Upload-Metadata must be pairs of a key and a Base64 value.")
            }
            let value = parts.count == 2 ? String(parts[1]) : ""
            guard let bytes = Data(base64Encoded: value) else {
                throw HTTPError.badRequest("invalid_metadata", "The value of \(key) in Upload-Metadata is not Base64.")
            }
            guard pairs.updateValue(Array(bytes), forKey: String(key)) == nil else {
                throw HTTPError.badRequest("invalid_metadata", "Upload-Metadata names \(key) twice.")
            }
        }
        return pairs
    }

    /// A metadata value as text: UTF-8, or refused.
    package static func text(_ metadata: [String: [UInt8]], _ key: String) throws(HTTPError) -> String? {
        guard let bytes = metadata[key] else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HTTPError.badRequest("invalid_metadata", "The value of \(key) in Upload-Metadata is not UTF-8 text.")
        }
        return text
    }

    /// `Upload-Checksum`: an algorithm and the piece's digest in Base64. SHA-1 is the one tus
    /// asks every server to take; SHA-256 is ours.
    package static func checksum(_ text: String?) throws(HTTPError) -> UploadPieceFile.Checksum? {
        guard let text else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let size = checksumAlgorithms[String(parts[0])] else {
            throw HTTPError.badRequest(
                "unsupported_checksum", "Upload-Checksum must be sha1 or sha256 and the piece's digest in Base64.")
        }
        guard let digest = Data(base64Encoded: String(parts[1])), digest.count == size else {
            throw HTTPError.badRequest("invalid_header", "The digest in Upload-Checksum is not a \(parts[0]) in Base64.")
        }
        return parts[0] == "sha1" ? .sha1(Array(digest)) : .sha256(Array(digest))
    }

    /// The algorithms `Upload-Checksum` may name, and their digests' sizes.
    package static let checksumAlgorithms = ["sha1": 20, "sha256": 32]

    /// `Upload-Expires`: an HTTP date (RFC 9110's IMF-fixdate), always in English and GMT.
    static func httpDate(_ date: Date) -> String {
        let time = UTCTime(date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let two = { UTCTime.digits($0, 2) }
        return "\(days[time.weekday]), \(two(time.day)) \(months[time.month - 1]) \(time.year) "
            + "\(two(time.hour)):\(two(time.minute)):\(two(time.second)) GMT"
    }
}
