import Foundation

/// A page request: which source, which media types, how many, and from where.
public struct AssetQuery: Sendable, Equatable {
    public var source: LibrarySource
    public var mediaTypes: Set<MediaType>
    public var limit: Int
    /// The `nextCursor` of the previous page; nil for the first.
    public var cursor: String?
    /// Only assets whose file name or camera (make and model) contains this, in any case.
    public var search: String?
    /// A jump to a month (`YYYY-MM`): the listing starts at its newest asset, or the newest one
    /// before it.
    public var month: String?
    /// Only assets of these kinds (a picker's filter); nil for every kind.
    public var kinds: Set<AssetKind>?

    public static let maxLimit = 500

    public init(
        source: LibrarySource = .photoLibrary, mediaTypes: Set<MediaType> = Set(MediaType.allCases), limit: Int = 100,
        cursor: String? = nil
    ) {
        self.source = source
        self.mediaTypes = mediaTypes
        self.limit = limit
        self.cursor = cursor
    }
}

/// One page of assets, newest capture first.
public struct AssetPage: Sendable, Equatable {
    public var assets: [Asset]
    /// Pass it back to get the next page; nil on the last page.
    public var nextCursor: String?
}

/// A position in the listing order (sort date, then id, both descending), opaque to clients.
package struct Cursor: Equatable {
    package var sortDate: String
    package var id: String

    package var encoded: String {
        Data("\(sortDate)|\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package init(sortDate: String, id: String) {
        self.sortDate = sortDate
        self.id = id
    }

    package init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.count <= 200, let data = Data(base64Encoded: base64),
            let decoded = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = decoded.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        self.init(sortDate: String(parts[0]), id: String(parts[1]))
    }
}
