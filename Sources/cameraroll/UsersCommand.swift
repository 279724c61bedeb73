import CameraRollServer
import Credentials
import Foundation

/// `cameraroll users add NAME [--admin]`, `users list [--json]`, `users passwd NAME`,
/// `users quota NAME SIZE|none`, `users remove NAME --to ADMIN`: the people who sign in, each
/// with a library of their own. The owner of a library made before there were
/// people is its first admin, named `owner`. A running server sees a change at its next request;
/// a new password signs that person's devices out.
enum UsersCommand {
    static let valued: Set<String> = ["to"]
    static let usage =
        "users add NAME [--admin], users list [--json], users passwd NAME, users quota NAME SIZE|none or users remove NAME --to ADMIN."

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        let (users, apps) = try await context.credentials()
        guard let action = arguments.positional.first else {
            throw UsageError(usage)
        }
        let rest = Array(arguments.positional.dropFirst())
        do {
            switch action {
            case "list":
                try arguments.allowOnly(["json"])
                guard rest.isEmpty else { throw UsageError("users list takes no arguments.") }
                let list = try users.all()
                if arguments.flag("json") {
                    Terminal.json(list.map(\.summary))
                } else if list.isEmpty {
                    Terminal.out("Nobody signs in yet: cameraroll passwd sets the owner's password.")
                } else {
                    Terminal.table(
                        [["ID", "NAME", "ADMIN", "PASSWORD", "QUOTA"]]
                            + list.map {
                                [
                                    String($0.id), $0.name, $0.admin ? "yes" : "no", $0.password == nil ? "none" : "set",
                                    $0.quota.map(StorageSize.text) ?? "none",
                                ]
                            })
                }
            case "add":
                try arguments.allowOnly(["admin"])
                guard rest.count == 1 else {
                    throw UsageError("users add takes one name (in quotes if it has spaces); it asks for the password.")
                }
                let admin = arguments.flag("admin")
                var added: UserAccounts.User?
                guard
                    await PasswordCommand.set(
                        whose: "\(rest[0])'s",
                        { password throws(CredentialsError) in added = try await users.add(rest[0], admin: admin, password: password) })
                else { return 1 }
                guard let added else { return 1 }
                Terminal.out(
                    "\(added.name) can sign in now\(added.admin ? ", as an admin" : ""), with a library of their own (\(users.location)).")
            case "passwd":
                try arguments.allowOnly([])
                guard rest.count == 1 else { throw UsageError("users passwd takes one name; it asks for the password.") }
                guard try users.user(named: rest[0]) != nil || (try users.all().isEmpty && rest[0] == UserAccounts.firstAdminName)
                else {
                    Terminal.error("cameraroll users: nobody here is called \(rest[0]).")
                    return 1
                }
                guard
                    await PasswordCommand.set(
                        whose: "\(rest[0])'s",
                        { password throws(CredentialsError) in
                            try await users.setPassword(password, of: rest[0])
                        })
                else { return 1 }
                Terminal.out("\(rest[0])'s password is set (\(users.location)). Their devices signed in with the old one are signed out.")
            case "quota":
                try arguments.allowOnly([])
                guard rest.count == 2 else { throw UsageError("users quota NAME SIZE (such as 20GB) or users quota NAME none.") }
                guard let person = try users.user(named: rest[0]) else {
                    throw CredentialsError(.unknownUser, "Nobody here is called \(rest[0]).")
                }
                let bytes = rest[1].lowercased() == "none" ? nil : try StorageSize.bytes(rest[1])
                try await users.setQuota(bytes, of: person.id)
                Terminal.out(
                    bytes.map { "\(person.name)'s library may hold \(StorageSize.text($0)); uploads past it are refused." }
                        ?? "\(person.name)'s library has no quota.")
            case "remove":
                try arguments.allowOnly(["to", "json"])
                guard rest.count == 1, let receiver = arguments.value("to") else {
                    throw UsageError("users remove NAME --to ADMIN: NAME's library goes to ADMIN's Recently Deleted.")
                }
                let outcome = try await PersonRemoval.remove(
                    rest[0], to: receiver, users: users, apps: apps, library: { try await context.openLibrary() })
                if arguments.flag("json") {
                    Terminal.json(outcome)
                } else {
                    let handed = outcome.library
                    Terminal.out(
                        "\(outcome.removed.name) is removed and signed out everywhere. \(outcome.receiver.name)'s Recently Deleted holds their "
                            + "\(handed.moved) item\(handed.moved == 1 ? "" : "s")"
                            + (handed.merged > 0 ? " (\(handed.merged) more \(outcome.receiver.name) had already)" : "")
                            + "; \(handed.albums) album\(handed.albums == 1 ? " is" : "s are") \(outcome.receiver.name)'s now.")
                }
            default:
                throw UsageError(usage)
            }
        } catch let error as CredentialsError {
            Terminal.error("cameraroll users: \(error.message)")
            return 1
        }
        return 0
    }
}
