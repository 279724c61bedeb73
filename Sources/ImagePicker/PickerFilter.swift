/// PHPickerFilter: which items a picker offers, as kinds of item combined with `any`, `all` and
/// `not`. JSON spells a kind as its name and a combination as an object of one key:
/// `"images"`, `{"any": ["livePhotos", "videos"]}`, `{"not": "screenshots"}`,
/// `{"all": ["videos", {"not": "slomoVideos"}]}`.
public indirect enum PickerFilter: Sendable, Equatable, Codable {
    case kind(Kind)
    case any([PickerFilter])
    case all([PickerFilter])
    case not(PickerFilter)

    /// PHPickerFilter's kinds this library can tell. A Live Photo and a screenshot are images;
    /// a slow-motion video is a video recorded at 100 frames a second or more (iOS's high frame
    /// rate subtype).
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case images, videos, livePhotos, screenshots, slomoVideos
    }

    /// A filter of real size: pickers combine a handful of kinds; deeper or longer is refused
    /// before anything is evaluated.
    public static let maxDepth = 8
    public static let maxNodes = 64

    /// Whether an item passes, given which kinds it is.
    public func admits(_ isKind: (Kind) -> Bool) -> Bool {
        switch self {
        case .kind(let kind): isKind(kind)
        case .any(let filters): filters.contains { $0.admits(isKind) }
        case .all(let filters): filters.allSatisfy { $0.admits(isKind) }
        case .not(let filter): !filter.admits(isKind)
        }
    }

    public init(from decoder: any Decoder) throws {
        self = try Self.decode(decoder, depth: 0, budget: NodeBudget())
    }

    /// Counts the nodes read so far across the whole filter, so that a wide filter is refused
    /// as a deep one is.
    private final class NodeBudget {
        var left = PickerFilter.maxNodes
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case any, all, not
    }

    private static func decode(_ decoder: any Decoder, depth: Int, budget: NodeBudget) throws -> PickerFilter {
        budget.left -= 1
        guard depth < maxDepth, budget.left >= 0 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "at most \(maxDepth) levels and \(maxNodes) parts."))
        }
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            guard let kind = Kind(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: "\(name) is no filter; \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return .kind(kind)
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a filter is a kind or one of any, all and not."))
        }
        let inner = try container.superDecoder(forKey: key)
        if key == .not { return .not(try decode(inner, depth: depth + 1, budget: budget)) }
        var list = try inner.unkeyedContainer()
        var filters: [PickerFilter] = []
        while !list.isAtEnd {
            filters.append(try decode(try list.superDecoder(), depth: depth + 1, budget: budget))
        }
        guard !filters.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: inner.codingPath, debugDescription: "\(key.rawValue) names no filter."))
        }
        return key == .any ? .any(filters) : .all(filters)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .kind(let kind):
            var single = encoder.singleValueContainer()
            try single.encode(kind)
        case .any(let filters):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(filters, forKey: .any)
        case .all(let filters):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(filters, forKey: .all)
        case .not(let filter):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(filter, forKey: .not)
        }
    }
}
