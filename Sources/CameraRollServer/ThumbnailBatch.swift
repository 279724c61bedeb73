import Foundation
package import Memo
package import PhotoLibrary

/// A screen's thumbnails in one response (`GET /api/thumbnails?size=256&items=…`): over HTTP/1.1
/// a browser asks six at a time, and sixty requests cost a timeline's first screen more than the
/// thumbnails themselves. `items` names them as `id` or `id~edit` (the edit as URLs spell it),
/// separated by `;`. The body is a 4-byte big-endian length, a JSON index of that length
/// (`[{"id", "type", "length"}]`, in the order asked, a length of 0 for one that could not be
/// made), then every thumbnail's bytes one after another.
package enum ThumbnailBatch {
    package static let maxItems = 200

    package struct Item: Equatable {
        package var id: String
        package var edit: ImageEdit?
    }

    /// The items `items` names; nil for text this server does not write (too many, an empty id,
    /// an edit that is no photo's edit).
    package static func items(_ text: String) -> [Item]? {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard (1...maxItems).contains(parts.count) else { return nil }
        var items: [Item] = []
        for part in parts {
            let fields = part.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
            let id = String(fields[0])
            guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
            guard fields.count == 2 else {
                items.append(Item(id: id))
                continue
            }
            guard case .image(let edit)? = Edit(capabilityText: String(fields[1])) else { return nil }
            items.append(Item(id: id, edit: edit))
        }
        return items
    }

    /// The body of a batch: its index, then the bytes.
    package static func body(_ parts: [(id: String, made: (mimeType: String, bytes: StableBytes)?)]) -> [UInt8] {
        struct Entry: Encodable {
            var id: String
            var type: String
            var length: Int
        }
        let index = parts.map { Entry(id: $0.id, type: $0.made?.mimeType ?? "", length: $0.made?.bytes.count ?? 0) }
        let json = Array((try? JSONEncoder().encode(index)) ?? Data("[]".utf8))
        var body = withUnsafeBytes(of: UInt32(json.count).bigEndian) { Array($0) } + json
        body.reserveCapacity(body.count + parts.reduce(0) { $0 + ($1.made?.bytes.count ?? 0) })
        for part in parts { part.made?.bytes.withUnsafeBytes { body += $0 } }
        return body
    }
}
