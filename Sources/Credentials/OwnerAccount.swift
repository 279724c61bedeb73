public import Foundation

/// The owner's password hash in the data folder (`owner.json`, readable by the owner only).
/// There is one owner: whoever runs the server on this machine sets it.
public struct OwnerAccount: Sendable {
    public let file: URL

    public init(dataFolder: URL) {
        file = dataFolder.appendingPathComponent("owner.json")
    }

    public func passwordHash() throws(CredentialsError) -> PasswordHash? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(PasswordHash.self, from: Data(contentsOf: file))
        } catch {
            throw CredentialsError("unreadable_owner", "\(file.path) cannot be read; set the password again with `cameraroll passwd`.")
        }
    }

    public var hasPassword: Bool { (try? passwordHash()) != nil }

    /// Replaces the password: written to a temp file with mode 0600, then renamed over the old one.
    public func setPassword(_ password: String) throws(CredentialsError) {
        let hash = try PasswordHash(password: password)
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temp = file.deletingLastPathComponent().appendingPathComponent(".owner.json.\(UUID().uuidString)")
            let data = try JSONEncoder().encode(hash)
            guard FileManager.default.createFile(atPath: temp.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw CredentialsError("write_failed", "\(file.deletingLastPathComponent().path) is not writable.")
            }
            guard rename(temp.path, file.path) == 0 else {
                try? FileManager.default.removeItem(at: temp)
                throw CredentialsError("write_failed", "The password file could not be replaced.")
            }
        } catch let error as CredentialsError {
            throw error
        } catch {
            throw CredentialsError("write_failed", "The password could not be saved: \(error.localizedDescription)")
        }
    }
}
