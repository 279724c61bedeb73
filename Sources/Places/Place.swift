public import Failures
import Foundation

/// Where a photo or video was taken, in words: the gazetteer's nearest town or city, its region
/// and its country, as people name them in English.
public struct Place: Sendable, Equatable, Codable {
    /// The town or city ("Munich").
    public var name: String
    /// Its first-level region ("Bavaria"), where GeoNames names one.
    public var region: String?
    /// The country's English name ("Germany").
    public var country: String
    /// ISO 3166-1's two letters ("DE").
    public var countryCode: String

    public init(name: String, region: String?, country: String, countryCode: String) {
        self.name = name
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }

    /// The place as a line of text: "Munich, Bavaria, Germany".
    public var description: String { ([name] + (region.map { [$0] } ?? []) + [country]).joined(separator: ", ") }

    /// What search reads of the place: its names, and again without accents where they have
    /// some (people type "Sao Paulo" for São Paulo, and SQLite's trigram index of Debian 12
    /// cannot fold accents).
    public var words: String {
        let plain = Gazetteer.folded(description)
        return plain == description.lowercased() ? description : description + " / " + plain
    }
}

/// Why the gazetteer cannot be read.
public typealias PlacesError = Failure<PlacesFailures>

/// Its codes:
/// - `missing`: the gazetteer's files are not where the program was built to find them (the
///   install step writes them).
/// - `damaged`: a line is not as the install step writes it.
public enum PlacesFailures: FailureDomain {}

extension PlacesError.Code {
    public static let missing = Self("missing"), damaged = Self("damaged")
}
