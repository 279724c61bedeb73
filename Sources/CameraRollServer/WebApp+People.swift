import Credentials
import HTTPServer
import PhotoLibrary

extension WebApp {
    /// The people, for the Settings page: admins list, add and remove them and set anyone's
    /// password; everyone else may set only their own password. Ids in the paths, as sessions and
    /// items name people.
    func addPeopleRoutes(to router: inout Router) {
        router.get("/api/users") { request in
            _ = try admin(request)
            let list = try await answering { () async throws(CredentialsError) in try access.users.all() }
            let used = try await answering { () async throws(LibraryError) in try await library.catalog.usages() }
            return .json(PeopleJSON(users: list.map { PersonJSON($0.summary, used: used[Owner(id: $0.id)] ?? 0) }))
        }
        router.post("/api/users", body: .file(maxBytes: 4096)) { request in
            _ = try admin(request)
            struct Body: Decodable {
                var name: String
                var password: String
                var admin: Bool?
            }
            let body = try Self.decode(Body.self, request.body)
            let added = try await answering { () async throws(CredentialsError) in
                try await access.users.add(body.name, admin: body.admin ?? false, password: body.password)
            }
            return .json(added.summary, status: 201)
        }
        router.put("/api/users/:id/password", body: .file(maxBytes: 4096)) { request in
            let asker = try person(request)
            let whose = try person(id: try request.integer("id") ?? 0)
            guard asker.admin || asker.id == whose.id else {
                throw HTTPError(403, "admins_only", "Only an admin sets another person's password.")
            }
            struct Body: Decodable { var password: String }
            let body = try Self.decode(Body.self, request.body)
            try await answering { () async throws(CredentialsError) in try await access.users.setPassword(body.password, of: whose.name) }
            return .json(whose.summary)
        }
        router.delete("/api/users/:id") { request in
            let asker = try admin(request)
            let leaving = try person(id: try request.integer("id") ?? 0)
            let receiver = try person(id: try request.integer("to") ?? asker.id)
            return .json(
                try await answeringPeopleAndLibrary {
                    try await PersonRemoval.remove(
                        leaving.name, to: receiver.name, users: access.users, apps: access.apps, library: { library })
                })
        }
    }

    /// Who asks, by their record: the gate let only a person through.
    func person(_ request: Request) throws(HTTPError) -> UserAccounts.User {
        guard let person = access.person(request) else { throw HTTPError(401, "sign_in_required", "Sign in first.") }
        return person
    }

    func admin(_ request: Request) throws(HTTPError) -> UserAccounts.User {
        let asker = try person(request)
        guard asker.admin else { throw HTTPError(403, "admins_only", "Only an admin manages the people here.") }
        return asker
    }

    func person(id: Int) throws(HTTPError) -> UserAccounts.User {
        guard let found = access.users.user(id: id) else { throw HTTPError.notFound("Nobody here has that id.") }
        return found
    }

    /// The person a body names (sharing an album or a library with them).
    func person(named name: String) throws(HTTPError) -> UserAccounts.User {
        guard let found = try? access.users.user(named: name) else {
            throw HTTPError(404, "unknown_user", "Nobody here is called \(name).")
        }
        return found
    }

    /// A person's name, or how a person no longer here is shown; the library's first owner, before
    /// anyone has a password (and so a name), is "the owner".
    func name(of owner: Owner) -> String {
        access.users.user(id: owner.id)?.name ?? (owner == .first ? "the owner" : "someone no longer here")
    }
}

struct PeopleJSON: Encodable {
    var users: [PersonJSON]
}
