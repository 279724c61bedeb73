import Credentials
import HTTPServer
import PhotoLibrary

/// Each person's storage: what their library holds (`Catalog.usage`) against the quota an admin
/// gave them. An upload that would take a library past its quota is refused with 507 before it
/// becomes an asset; the check is made as each upload or piece comes, so uploads racing each
/// other may pass it together by at most their own sizes.
extension WebApp {
    func addQuotaRoutes(to router: inout Router) {
        router.get("/api/usage") { request in
            let owner = try owner(request)
            return .json(UsageJSON(used: try await used(by: owner), quota: access.users.user(id: owner.id)?.quota))
        }
        router.put("/api/users/:id/quota", body: .file(maxBytes: 4096)) { request in
            _ = try admin(request)
            let whose = try person(id: try request.integer("id") ?? 0)
            struct Body: Decodable { var quota: Int64? }
            let body = try Self.decode(Body.self, request.body)
            let changed = try await answering { () async throws(CredentialsError) in
                try await access.users.setQuota(body.quota, of: whose.id)
            }
            return .json(PersonJSON(changed.summary, used: try await used(by: Owner(id: changed.id))))
        }
    }

    func used(by owner: Owner) async throws -> Int64 {
        try await answering { () async throws(LibraryError) in try await library.catalog.usage(owner: owner) }
    }

    /// Refuses (507) an upload of `bytes` that would take `owner`'s library past their quota.
    func requireRoom(for bytes: Int, owner: Owner) async throws {
        guard let quota = access.users.user(id: owner.id)?.quota else { return }
        let used = try await used(by: owner)
        guard used + Int64(bytes) > quota else { return }
        throw HTTPError(
            507, "quota_exceeded",
            "There is no room for this in your library: it holds \(StorageSize.text(used)) of the \(StorageSize.text(quota)) it may. "
                + "Delete items and empty Recently Deleted, or ask an admin for more.")
    }
}

struct UsageJSON: Encodable {
    var used: Int64
    var quota: Int64?
}

/// A person as the Settings page lists them: their summary with the bytes their library holds.
struct PersonJSON: Encodable {
    let summary: UserAccounts.User.Summary
    let used: Int64

    init(_ summary: UserAccounts.User.Summary, used: Int64) {
        (self.summary, self.used) = (summary, used)
    }

    private enum Keys: String, CodingKey { case used }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(used, forKey: .used)
    }
}
