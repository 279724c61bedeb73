public import Foundation
import Storage

/// The owner's password hash: the data folder's `owner.json` (readable by the owner only), or,
/// when servers share a library, a record of its database (`SharedCredentials`), so that the
/// owner signs in on every server with one password. There is one owner: whoever runs the
/// server sets it.
public struct OwnerAccount: Sendable {
    let record: any KeptRecord

    public init(dataFolder: URL) {
        record = FileRecord(file: dataFolder.appendingPathComponent("owner.json"), lock: dataFolder.appendingPathComponent("owner.lock"))
    }

    public init(shared: SharedCredentials) {
        record = SharedRecord(store: shared, name: "owner-password")
    }

    /// Where the password is kept, in words for a person.
    public var location: String { record.location }

    public func passwordHash() throws(CredentialsError) -> PasswordHash? {
        guard let text = record.text() else { return nil }
        guard let hash = try? JSONDecoder().decode(PasswordHash.self, from: Data(text.utf8)) else {
            throw CredentialsError(
                .unreadableOwner, "The owner's password cannot be read. On the server's computer, run `cameraroll passwd`.",
                detail: location)
        }
        return hash
    }

    public var hasPassword: Bool { (try? passwordHash()) != nil }

    /// Names this version of the password: it changes with every new password (each has a new
    /// salt), so sessions that carry it end with the password. nil without one.
    public func stamp() -> String? { record.stamp() }

    /// Replaces the password; scrypt runs off the cooperative pool.
    public func setPassword(_ password: String) async throws(CredentialsError) {
        try await record.change { _ throws(CredentialsError) -> (String?, Void) in
            let hash = try PasswordHash(password: password)
            guard let data = try? JSONEncoder().encode(hash) else {
                throw CredentialsError(.writeFailed, "The password could not be saved.")
            }
            return (String(decoding: data, as: UTF8.self), ())
        }
    }
}
