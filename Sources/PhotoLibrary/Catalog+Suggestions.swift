import Foundation
import Storage

/// What the search field offers as a person types: a place, a country or a camera of their
/// library, or a year it has items of, each with how many items it has.
public struct SearchSuggestion: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case place, country, camera, year
    }

    public var kind: Kind
    /// What to search for (a place as "Arezzo, Tuscany, Italy"), or the year ("2019").
    public var text: String
    public var items: Int

    public init(kind: Kind, text: String, items: Int) {
        self.kind = kind
        self.text = text
        self.items = items
    }
}

extension Catalog {
    /// At most how many terms a suggestion lists (a year besides).
    public static let maxSuggestions = 8

    /// The places, countries and cameras of `owner`'s library whose names contain `typed` (in
    /// any case; a country also by its name in another language), those with the most items
    /// first, and the year `typed` names when the library has items of it. Read from the
    /// terms kept as items come and go (`search_terms`) and from the day counts: one person's
    /// few rows of each, at any size of the library.
    public func suggestions(for typed: String, owner: Owner) async throws(LibraryError) -> [SearchSuggestion] {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return [] }
        guard text.count <= 100, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LibraryError(.invalidRequest, "q: at most 100 characters, none of them control characters.")
        }
        let patterns = ([text] + (await geocoder.synonyms(of: text))).map { "%" + Library.likeEscaped($0.lowercased()) + "%" }
        let matching = patterns.map { _ in "lower(term) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ")
        let year = Int(text).flatMap { (1800...2199).contains($0) && text.count == 4 ? $0 : nil }
        return try await read { connection throws(StorageError) in
            let terms = try connection.query(
                "SELECT kind, term, items FROM search_terms WHERE owner_id = ? AND (\(matching)) ORDER BY items DESC, term LIMIT ?",
                [owner.id] + patterns + [Self.maxSuggestions]
            ).map { row throws(StorageError) in
                guard let kind = SearchSuggestion.Kind(rawValue: try row.text("kind")) else {
                    throw StorageError(.corruptRow, "A row of the library is damaged: a search term of no kind.")
                }
                return SearchSuggestion(kind: kind, text: try row.text("term"), items: try row.integer("items"))
            }
            guard let year else { return terms }
            let items = try connection.query(
                "SELECT sum(items) AS items FROM day_counts WHERE owner_id = ? AND listing = ? AND day >= ? AND day < ?",
                [owner.id, AssetCollection.library.countedName, "\(year)-01-01", "\(year + 1)-01-01"]
            ).first?.optionalInteger("items")
            return (items.map { $0 > 0 ? [SearchSuggestion(kind: .year, text: String(year), items: $0)] : [] } ?? []) + terms
        }
    }
}
