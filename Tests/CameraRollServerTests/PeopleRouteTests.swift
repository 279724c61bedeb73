import Credentials
import Foundation
import TestSupport
import Testing

/// The people as the Settings page manages them: admins list, add and remove people and set
/// passwords; anyone else sets only their own. The first admin asks from this computer; Anna
/// signs in.
@Suite(.serialized) struct PeopleRouteTests {
    let live: LiveServer

    init() async throws {
        live = try LiveServer()
        let users = UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root))
        try await users.setFirstAdminPassword("the owner's password")
        try await users.add("anna", admin: false, password: "anna's password")
    }

    func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    func signIn(_ user: String, _ password: String) async throws -> [String: String] {
        let signedIn = try await live.request("POST", "/api/session", body: try json(["user": user, "password": password]))
        #expect(signedIn.status == 200, "\(user): \(signedIn.status)")
        return ["Cookie": try #require(signedIn.header("Set-Cookie")?.split(separator: ";").first.map(String.init))]
    }

    func names() async throws -> [String] {
        let listed = try await live.get("/api/users")
        #expect(listed.status == 200)
        return (listed.json["users"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    }

    @Test func adminsManageThePeopleAndEveryoneTheirOwnPassword() async throws {
        var anna = try await signIn("anna", "anna's password")
        #expect(try await names() == ["owner", "anna"])
        let listed = try await live.get("/api/users")
        #expect(!listed.text.contains("salt") && !listed.text.contains("hash"), "never a password's hash")

        // Anna is no admin: she manages nobody, and sets only her own password.
        for (method, path, body) in [
            ("GET", "/api/users", nil), ("POST", "/api/users", try json(["name": "ben", "password": "ben's password"])),
            ("DELETE", "/api/users/1?to=2", nil), ("PUT", "/api/users/1/password", try json(["password": "taken over!"])),
        ] as [(String, String, Data?)] {
            let reply = try await live.request(method, path, body: body, headers: anna)
            #expect(reply.status == 403 && reply.json["code"] as? String == "admins_only", "\(method) \(path): \(reply.status)")
        }
        let own = try await live.request("PUT", "/api/users/2/password", body: try json(["password": "anna's new password"]), headers: anna)
        #expect(own.status == 200 && own.json["name"] as? String == "anna")
        #expect(try await live.get("/api/session", headers: anna).json["signedIn"] as? Bool == false, "a new password ends her sessions")
        anna = try await signIn("anna", "anna's new password")

        // The admin adds people; a name taken, a bad name and a short password are refused.
        let added = try await live.request(
            "POST", "/api/users", body: try json(["name": "Ben", "password": "ben's password", "admin": true]))
        #expect(added.status == 201 && added.json["admin"] as? Bool == true && added.json["passwordSet"] as? Bool == true)
        let benID = try #require(added.json["id"] as? Int)
        let taken = try await live.request("POST", "/api/users", body: try json(["name": "ben", "password": "another password"]))
        #expect(taken.status == 409 && taken.json["code"] as? String == "name_taken")
        let badName = try await live.request("POST", "/api/users", body: try json(["name": "a\u{7}b", "password": "a long password"]))
        #expect(badName.status == 400 && badName.json["code"] as? String == "invalid_user_name")
        let weak = try await live.request("POST", "/api/users", body: try json(["name": "cleo", "password": "short"]))
        #expect(weak.status == 400 && weak.json["code"] as? String == "weak_password")
        #expect(try await names() == ["owner", "anna", "Ben"])
        let reset = try await live.request("PUT", "/api/users/\(benID)/password", body: try json(["password": "ben's second password"]))
        #expect(reset.status == 200)
        _ = try await signIn("ben", "ben's second password")

        // Removing Anna hands her photo to Ben's Recently Deleted and signs her out.
        let hers = try await live.upload("photos/exifsamples__Canon_40D.jpg", headers: anna)
        let herID = try #require(hers.json["id"] as? String)
        let toHerself = try await live.request("DELETE", "/api/users/2?to=2")
        #expect(toHerself.status == 409 && toHerself.json["code"] as? String == "not_allowed")
        #expect(try await live.request("DELETE", "/api/users/2?to=99").status == 404)
        #expect(try await live.request("DELETE", "/api/users/99").status == 404)
        let removed = try await live.request("DELETE", "/api/users/2?to=\(benID)")
        #expect(removed.status == 200, "\(removed.text)")
        #expect((removed.json["library"] as? [String: Int]) == ["moved": 1, "merged": 0, "albums": 0])
        #expect((removed.json["receiver"] as? [String: Any])?["name"] as? String == "Ben")
        #expect(try await names() == ["owner", "Ben"])
        #expect(try await live.get("/api/session", headers: anna).json["signedIn"] as? Bool == false)
        let ben = try await signIn("ben", "ben's second password")
        let bens = try await live.get("/api/assets/\(herID)", headers: ben)
        #expect(bens.status == 200 && bens.json["trashed"] as? Bool == true, "\(bens.text)")
        #expect(try await live.get("/api/assets/\(herID)").status == 404, "Ben's, not the owner's")
    }

    /// An admin gives Anna room for 5,000 bytes: what would not fit is refused with 507, as a
    /// plain upload and as a resumable one, and what fits goes in; her usage says so.
    @Test func aQuotaRefusesWhatWouldNotFit() async throws {
        let anna = try await signIn("anna", "anna's password")
        let byHer = try await live.request("PUT", "/api/users/2/quota", body: try json(["quota": 5000]), headers: anna)
        #expect(byHer.status == 403, "her own quota is an admin's to set")
        for refused in [0, -1, 1_000_000_000_000_001] {
            let reply = try await live.request("PUT", "/api/users/2/quota", body: try json(["quota": refused]))
            #expect(reply.status == 400 && reply.json["code"] as? String == "invalid_quota", "\(refused)")
        }
        let set = try await live.request("PUT", "/api/users/2/quota", body: try json(["quota": 5000]))
        #expect(set.status == 200 && set.json["quota"] as? Int == 5000 && set.json["used"] as? Int == 0)

        let tooBig = try await live.upload("photos/exifsamples__Canon_40D.jpg", headers: anna)
        #expect(tooBig.status == 507 && tooBig.json["code"] as? String == "quota_exceeded", "\(tooBig.status)")
        #expect((tooBig.json["message"] as? String)?.contains("5 KB") == true)
        let fits = try await live.upload("photos/exifsamples__Ricoh_Caplio_RR330.jpg", headers: anna)
        #expect(fits.status == 201)
        let usage = try await live.get("/api/usage", headers: anna)
        #expect(usage.json["used"] as? Int == 3662 && usage.json["quota"] as? Int == 5000)
        let tus = ["Tus-Resumable": "1.0.0"].merging(anna) { $1 }
        let resumable = try await live.request("POST", "/api/uploads", headers: tus.merging(["Upload-Length": "3565"]) { $1 })
        #expect(resumable.status == 507 && resumable.header("Tus-Resumable") == "1.0.0")
        let deferred = try await live.request("POST", "/api/uploads", headers: tus.merging(["Upload-Defer-Length": "1"]) { $1 })
        let path = try #require(deferred.header("Location"))
        let piece = tus.merging(["Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"]) { $1 }
        let past = try await live.request("PATCH", path, body: Data(count: 2000), headers: piece)
        #expect(past.status == 507, "a piece that takes it past her room")
        // The first admin has no quota.
        #expect(try await live.upload("photos/exifsamples__Canon_40D.jpg").status == 201)
        let listed = try await live.get("/api/users")
        let people = try #require(listed.json["users"] as? [[String: Any]])
        #expect(people.map { $0["used"] as? Int } == [7958, 3662])
        #expect(people.map { $0["quota"] as? Int } == [nil, 5000])
        let none = try await live.request("PUT", "/api/users/2/quota", body: Data(#"{"quota": null}"#.utf8))
        #expect(none.status == 200 && none.json["quota"] == nil)
        #expect(try await live.upload("photos/exifsamples__Canon_40D.jpg", headers: anna).status == 201)
    }
}
