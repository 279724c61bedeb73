import Foundation

/// Files only their owner may read (the password hash, the sessions), replaced whole: written
/// to a temp file with mode 0600 and renamed over the old one, so a reader sees the old or the
/// new, never half of either.
enum PrivateFile {
    static func write(_ data: Data, to file: URL) throws(CredentialsError) {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CredentialsError("write_failed", "\(folder.path) cannot be made: \(error.localizedDescription)")
        }
        let temp = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temp.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CredentialsError("write_failed", "\(folder.path) is not writable.")
        }
        guard rename(temp.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temp)
            throw CredentialsError("write_failed", "\(file.path) could not be replaced.")
        }
    }
}
