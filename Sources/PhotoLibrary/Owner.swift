/// The person an asset, an album, an upload or a download belongs to: the id the credentials
/// give them. A library from before there were people is its first admin's.
public struct Owner: Sendable, Hashable, Codable {
    public let id: Int

    public init(id: Int) {
        self.id = id
    }

    /// As rows and JSON keep it: the id alone.
    public init(from decoder: any Decoder) throws {
        id = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }

    /// The first admin, the owner of every library made before there were people.
    public static let first = Owner(id: 1)

    /// What an album's days are counted under in `day_counts`: an album's id is its own
    /// whoever owns it, and a shared album holds several people's items.
    static let albums = 0
}
