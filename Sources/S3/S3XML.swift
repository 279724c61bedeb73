package import Foundation

/// The little of S3's XML answers we read, by a scanner of ours: their shape is fixed and
/// flat, and Foundation's XMLParser traps on an element name that is not UTF-8 (found by
/// `make fuzz`), which a broken or hostile endpoint would turn into a crash of the server.
enum S3XML {
    /// The text of every `<name>…</name>` in `text`, in order.
    static func elements(_ name: String, in text: Substring) -> [Substring] {
        var found: [Substring] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
            found.append(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func removing(_ name: String, from text: Substring) -> String {
        var kept = ""
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
            kept += rest[..<open.lowerBound]
            rest = rest[close.upperBound...]
        }
        return kept + rest
    }

    /// XML's five predefined entities, the only ones S3 writes.
    static func unescaped(_ text: Substring) -> String {
        var result = String(text)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }

    static func escaped(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "&", with: "&amp;")
        for (character, entity) in [("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&apos;")] {
            result = result.replacingOccurrences(of: character, with: entity)
        }
        return result
    }
}

/// One page of ListObjectsV2's answer.
package struct ListingPage: Sendable {
    package private(set) var objects: [(key: String, modified: Date)] = []
    package private(set) var isTruncated = false
    package private(set) var nextToken: String?
    package private(set) var isWellFormed = false

    package init(_ body: [UInt8]) {
        guard let text = String(validating: body, as: UTF8.self), text.contains("<ListBucketResult") else { return }
        for contents in S3XML.elements("Contents", in: Substring(text)) {
            guard let key = S3XML.elements("Key", in: contents).first.map(S3XML.unescaped) else { return }
            let modified = S3XML.elements("LastModified", in: contents).first.flatMap {
                try? Date(String($0), strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            }
            objects.append((key, modified ?? .distantPast))
        }
        // Outside the objects, so that a key that spells a tag is never taken for one.
        let rest = S3XML.removing("Contents", from: Substring(text))
        isTruncated = S3XML.elements("IsTruncated", in: rest[...]).first == "true"
        nextToken = S3XML.elements("NextContinuationToken", in: rest[...]).first.map(S3XML.unescaped)
        isWellFormed = !isTruncated || nextToken != nil
    }
}

/// What the store says to the start and to the end of a multipart upload.
package enum MultipartAnswer {
    /// The id of the upload InitiateMultipartUpload started.
    package static func uploadID(_ body: [UInt8]) -> String? {
        guard let text = String(validating: body, as: UTF8.self), text.contains("<InitiateMultipartUploadResult") else { return nil }
        guard let id = S3XML.elements("UploadId", in: Substring(text)).first.map(S3XML.unescaped), !id.isEmpty else { return nil }
        return id
    }

    /// Whether CompleteMultipartUpload completed: S3 may answer 200 and still fail, with an
    /// `<Error>` in the body.
    package static func completed(_ body: [UInt8]) -> Bool {
        guard let text = String(validating: body, as: UTF8.self) else { return false }
        return text.contains("<CompleteMultipartUploadResult") && !text.contains("<Error>")
    }
}
