import Credentials
import Foundation
import HTTPServer
import IPAddress
import PhotoLibrary
import TestSupport
import Testing

/// Sharing into CameraRoll from another app, as a phone's browser launches the manifest's share
/// target (a navigation it starts itself: `Sec-Fetch-Site: none`, `Origin: null`, no CSRF token)
/// for Anna on the LAN: what came is imported into her library and she lands on Recently Added,
/// told what came; a page of another site cannot do the same, and nobody signed out loses
/// more than the share.
@Suite(.serialized) struct ShareTargetTests {
    let live: LiveServer
    let boundary = "----WebKitFormBoundaryShare0123"

    init() async throws { live = try await LiveServer.family() }

    let phone = ["X-Forwarded-For": "192.168.1.20"]
    let launch = ["Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Origin": "null"]

    func signIn(_ fields: [String: String]) async throws -> [String: String] {
        let reply = try await live.request("POST", "/api/session", body: try JSONEncoder().encode(fields), headers: phone)
        return ["Cookie": try #require(reply.header("Set-Cookie")?.split(separator: ";").first.map(String.init))]
    }

    /// The form Chromium writes for the share: each file a `media` part.
    func form(_ files: [(name: String, type: String, bytes: Data)]) -> Data {
        var body = Data()
        for file in files {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"media\"; filename=\"\(file.name)\"\r\n".utf8)
            body += Data("Content-Type: \(file.type)\r\n\r\n".utf8) + file.bytes + Data("\r\n".utf8)
        }
        return body + Data("--\(boundary)--\r\n".utf8)
    }

    func share(_ body: Data, headers: [String: String]) async throws -> LiveServer.Reply {
        try await live.request(
            "POST", "/share", body: body,
            headers: phone.merging(["Content-Type": "multipart/form-data; boundary=\(boundary)"]) { $1 }.merging(headers) { $1 })
    }

    func corpus(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file))) }

    func landing(_ reply: LiveServer.Reply) throws -> URLComponents {
        #expect(reply.status == 303, "\(reply.status) \(reply.text)")
        let location = try #require(reply.header("Location"))
        return try #require(URLComponents(string: location))
    }

    func names(_ session: [String: String]) async throws -> Set<String> {
        let listed = try await live.get("/api/assets?collection=recentlyAdded", headers: phone.merging(session) { $1 })
        return Set((listed.json["assets"] as? [[String: Any]] ?? []).compactMap { $0["originalFilename"] as? String })
    }

    @Test func aShareLandsInTheLibraryOfWhoeverIsSignedIn() async throws {
        let anna = try await signIn(["user": "anna", "password": "anna's password"])
        let body = form([
            ("IMG_0001.jpg", "image/jpeg", try corpus("photos/exifsamples__Canon_40D.jpg")),
            ("/storage/emulated/0/DCIM/tokyo.jpg", "image/jpeg", try corpus("photos/androidx-media__tokyo.jpg")),
            ("notes.txt", "image/jpeg", Data("not a photo at all".utf8)),
        ])
        let landed = try landing(try await share(body, headers: launch.merging(anna) { $1 }))
        #expect(landed.path == "/library" && landed.fragment == "/recent")
        let query = Dictionary(uniqueKeysWithValues: (landed.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["shared"] == "2" && query["refused"] == "1" && query["reason"]?.hasPrefix("notes.txt: ") == true, "\(query)")
        #expect(try await names(anna) == ["IMG_0001.jpg", "tokyo.jpg"], "a name, never the phone's path")
        let owner = try await signIn(["password": "the owner's password"])
        #expect(try await names(owner).isEmpty, "hers alone")

        // Over her quota, a share is refused file by file and says why.
        let users = UserAccounts(dataFolder: URL(fileURLWithPath: live.library.folder.root))
        try await users.setQuota(1, of: try #require(try users.user(named: "anna")).id)
        let full = try landing(
            try await share(
                form([("big.jpg", "image/jpeg", try corpus("photos/androidx-media__london.jpg"))]), headers: launch.merging(anna) { $1 }))
        let reason = full.queryItems?.first { $0.name == "reason" }?.value ?? ""
        #expect(full.queryItems?.first { $0.name == "shared" }?.value == "0" && reason.contains("no room"), "\(reason)")
    }

    @Test func onlyABrowsersOwnLaunchNeedsNoCSRFToken() async throws {
        let anna = try await signIn(["user": "anna", "password": "anna's password"])
        let body = form([("IMG_0001.jpg", "image/jpeg", try corpus("photos/exifsamples__Canon_40D.jpg"))])
        // A page's form: its origin, a site's fetch metadata, or none of it.
        let pages: [[String: String]] = [
            ["Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"],
            ["Origin": "null", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"],
            ["Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"],
            [:],
        ]
        for headers in pages {
            let refused = try await share(body, headers: headers.merging(anna) { $1 })
            #expect([403].contains(refused.status), "\(headers): \(refused.status)")
        }
        #expect(try await names(anna).isEmpty)
        let notAForm = try await live.request(
            "POST", "/share", body: Data("{}".utf8),
            headers: phone.merging(launch) { $1 }.merging(anna) { $1 }.merging(["Content-Type": "application/json"]) { $1 })
        #expect(notAForm.status == 415)
        let broken = try await share(Data("--\(boundary)\r\nno end".utf8), headers: launch.merging(anna) { $1 })
        #expect(broken.status == 400 && broken.json["code"] as? String == "invalid_multipart")

        // Signed out: to the sign-in page before the body is read, and from there to the Library,
        // which says to share again.
        let signedOut = try await share(body, headers: launch)
        #expect(signedOut.status == 303 && signedOut.header("Location") == "/signin?next=/share")
        let after = try await live.get("/share", headers: phone.merging(anna) { $1 })
        #expect(after.status == 303 && after.header("Location") == "/library?shared=again#/recent")
    }
}
