/// The book's media types, by their uniform type identifiers: what the library stores, the
/// picker offers and a result says it is.
public enum MediaType: String, Sendable, Codable, CaseIterable, Comparable {
    case image = "public.image"
    case movie = "public.movie"

    public static func < (lhs: MediaType, rhs: MediaType) -> Bool { lhs.rawValue < rhs.rawValue }
}
