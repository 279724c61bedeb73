public import Foundation
import Storage

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

    /// Names this version of the password file (inode and change time): the file is replaced
    /// whole whenever the password changes, so the stamp changes with it. nil without a file.
    public func stamp() -> String? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return "\(info.st_ino)-\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// Replaces the password (a PrivateFile: readable by the owner only, replaced whole).
    public func setPassword(_ password: String) throws(CredentialsError) {
        let hash = try PasswordHash(password: password)
        do {
            try PrivateFile.replace(Array(try JSONEncoder().encode(hash)), at: file.path)
        } catch {
            throw CredentialsError("write_failed", "The password could not be saved: \(error).")
        }
    }
}
