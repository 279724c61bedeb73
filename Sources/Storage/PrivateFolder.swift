import Foundation

/// Folders only their owner may open (0700).
public enum PrivateFolder {
    /// Makes `path` and any missing parents; when durable, each is fsynced into its parent.
    public static func make(_ path: String, _ durability: PrivateFile.Durability = .durable) throws(StorageError) {
        try FileIO.makeDirectories(path, durability)
    }

    /// Makes `path`, or closes one that is there (what an earlier version made 0755) to
    /// everyone but its owner.
    public static func prepare(_ path: String) throws(StorageError) {
        try FileIO.makeDirectories(path)
        FileIO.restrict(path, to: 0o700)
    }
}
