public import Foundation

/// Each person's passkeys, kept with them in the list of people: so every server of a library
/// knows them at its next look, and a person removed takes their passkeys along.
extension UserAccounts {
    /// The person a passkey belongs to, and the passkey, by its credential id.
    public func passkey(id: String) throws(CredentialsError) -> (user: User, passkey: Passkey)? {
        for user in try all() {
            if let passkey = user.passkeys?.first(where: { $0.id == id }) { return (user, passkey) }
        }
        return nil
    }

    /// Adds a passkey `registered` to the person of `userID`; a passkey is one person's only.
    @discardableResult
    public func addPasskey(_ registered: WebAuthn.Registered, named name: String, to userID: Int, now: Date = Date())
        async throws(CredentialsError) -> Passkey
    {
        let name = try Passkey.validated(name: name)
        let passkey = Passkey(
            id: Base64URL.text(registered.credentialID), publicKey: registered.publicKey, signCount: registered.signCount, name: name,
            created: now, lastUsed: nil)
        return try await change { users, _ throws(CredentialsError) -> Passkey in
            guard let index = users.firstIndex(where: { $0.id == userID }) else {
                throw CredentialsError(.unknownUser, "That person is not here any more.")
            }
            guard !users.contains(where: { $0.passkeys?.contains { $0.id == passkey.id } == true }) else {
                throw CredentialsError(.passkeyTaken, "This passkey is registered here already.")
            }
            guard (users[index].passkeys?.count ?? 0) < Passkey.most else {
                throw CredentialsError(.notAllowed, "Someone keeps \(Passkey.most) passkeys at most: remove one you no longer use first.")
            }
            users[index].passkeys = (users[index].passkeys ?? []) + [passkey]
            return passkey
        }
    }

    /// Removes one of the person's passkeys; another's, or one that is gone, is unknown.
    public func removePasskey(_ id: String, of userID: Int) async throws(CredentialsError) {
        try await change { users, _ throws(CredentialsError) in
            guard let index = users.firstIndex(where: { $0.id == userID }),
                let passkeys = users[index].passkeys, passkeys.contains(where: { $0.id == id })
            else { throw CredentialsError(.unknownPasskey, "You have no such passkey.") }
            users[index].passkeys = passkeys.filter { $0.id != id }
        }
    }

    /// Keeps the count a passkey signed a sign-in with, which the next must exceed, and when.
    /// Checked again under the lock: of two sign-ins with one count, one is refused.
    public func signedIn(with id: String, count: UInt32, now: Date = Date()) async throws(CredentialsError) {
        try await change { users, _ throws(CredentialsError) in
            for index in users.indices {
                guard let at = users[index].passkeys?.firstIndex(where: { $0.id == id }) else { continue }
                try WebAuthn.checkCount(count, after: users[index].passkeys![at].signCount)
                users[index].passkeys![at].signCount = count
                users[index].passkeys![at].lastUsed = now
                return
            }
            throw CredentialsError(.unknownPasskey, "That passkey was removed.")
        }
    }
}
