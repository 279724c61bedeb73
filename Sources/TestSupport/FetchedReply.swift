public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An answer as the tests read one asked through URLSession: its status, its head's fields by
/// name (a repeated field joined with commas), its body.
public struct FetchedReply: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The answer to `request` on `session`.
    public init(_ request: URLRequest, on session: URLSession) async throws {
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        self.init(status: http.statusCode, headers: fields, body: data)
    }

    public func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }

    public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }

    public var text: String { String(decoding: body, as: UTF8.self) }
}
