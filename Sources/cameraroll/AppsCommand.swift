import Credentials
import Foundation

/// `cameraroll apps add ORIGIN [--name NAME] [--link-lifetime DURATION]`, `apps list [--json]`,
/// `apps remove ID|ORIGIN`, each with `--user NAME` (by default the first admin): the web sites
/// a person allows to open their picker, as their settings page shows them. A running server
/// sees a change at once; removing a site ends its links.
enum AppsCommand {
    static let valued: Set<String> = ["name", "link-lifetime", "user"]

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        let apps = try await context.credentials().apps
        guard let action = arguments.positional.first else {
            throw UsageError("apps add ORIGIN [--name NAME] [--link-lifetime 1h], apps list [--json] or apps remove ID|ORIGIN.")
        }
        let rest = Array(arguments.positional.dropFirst())
        let owner = try await context.owner(named: arguments.value("user")).id
        do {
            switch action {
            case "add":
                try arguments.allowOnly(["name", "link-lifetime", "user"])
                guard rest.count == 1 else { throw UsageError("apps add takes one origin, such as https://blog.example.") }
                let origin = try WebOrigin(rest[0])
                let lifetime = try arguments.value("link-lifetime").map(duration) ?? AllowedApps.defaultLinkLifetime
                let app = try await apps.add(
                    origin, name: arguments.value("name") ?? origin.authority, linkLifetime: lifetime, owner: owner)
                Terminal.out(
                    "\(app.name) (\(app.origin)) may use the picker; links to what it is given last \(describe(app.linkLifetime)).")
            case "list":
                try arguments.allowOnly(["json", "user"])
                guard rest.isEmpty else { throw UsageError("apps list takes no arguments.") }
                let list = apps.list(owner: owner)
                if arguments.flag("json") {
                    Terminal.json(list)
                } else if list.isEmpty {
                    Terminal.out("No site may use the picker yet: cameraroll apps add https://blog.example --name \"My blog\"")
                } else {
                    Terminal.table(
                        [["ID", "ORIGIN", "NAME", "LINKS LAST"]]
                            + list.map { [$0.id, $0.origin.description, $0.name, describe($0.linkLifetime)] })
                }
            case "remove":
                try arguments.allowOnly(["user"])
                guard rest.count == 1 else { throw UsageError("apps remove takes one app id or origin.") }
                guard let removed = try await apps.remove(rest[0], owner: owner) else {
                    Terminal.error("cameraroll apps: no allowed app has the id or origin \(rest[0]).")
                    return 1
                }
                Terminal.out("\(removed.name) (\(removed.origin)) may no longer use the picker; its links no longer work.")
            default:
                throw UsageError("apps add, apps list or apps remove.")
            }
        } catch let error as CredentialsError {
            Terminal.error("cameraroll apps: \(error.message)")
            return 1
        }
        return 0
    }

    /// `90`, `90s`, `10m`, `1h`, `7d`: seconds.
    static func duration(_ text: String) throws(UsageError) -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let unit = text.last.flatMap { units[$0] }
        guard let count = Int(unit == nil ? text : String(text.dropLast())), count > 0, count <= AllowedApps.linkLifetimes.upperBound,
            AllowedApps.linkLifetimes.contains(count * (unit ?? 1))
        else {
            throw UsageError("--link-lifetime is a number of seconds, or of minutes, hours or days (90s, 10m, 1h, 7d), at most 30 days.")
        }
        return count * (unit ?? 1)
    }

    static func describe(_ seconds: Int) -> String {
        let (size, name) = [(86400, "day"), (3600, "hour"), (60, "minute")].first { seconds % $0.0 == 0 } ?? (1, "second")
        return "\(seconds / size) \(name)\(seconds / size == 1 ? "" : "s")"
    }
}
