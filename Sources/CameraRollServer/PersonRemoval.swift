public import Credentials
public import PhotoLibrary

/// A person leaving, as the command line and the Settings page both do it: their library is
/// handed to an admin first, so a failure between the two steps leaves them here with nothing,
/// and asking again finishes the removal.
public enum PersonRemoval {
    public struct Outcome: Sendable, Encodable {
        public let removed: UserAccounts.User.Summary
        public let receiver: UserAccounts.User.Summary
        public let library: HandOver
    }

    /// Their allowed sites go with them (and so the links those sites were given). `library` is
    /// opened only once the names are known to be a removal the rules allow.
    public static func remove(
        _ name: String, to receiverName: String, users: UserAccounts, apps: AllowedApps, library: () async throws -> Library
    ) async throws -> Outcome {
        let (departing, receiver) = try users.removal(of: name, to: receiverName)
        let handed = try await library().catalog.handOver(
            from: Owner(id: departing.id), to: Owner(id: receiver.id), label: "from \(departing.name)")
        try await apps.removeAll(owner: departing.id)
        try await users.remove(id: departing.id)
        return Outcome(removed: departing.summary, receiver: receiver.summary, library: handed)
    }
}
