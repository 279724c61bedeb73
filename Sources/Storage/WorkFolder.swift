import Foundation

/// One process's own folder for work files (uploads arriving, staged copies, posters,
/// renditions): `tmp/<uuid>/`, claimed by an exclusive `flock` on `tmp/<uuid>.lock` for as
/// long as the process lives. The kernel drops the lock however the process dies, so a lock
/// anyone can take marks a folder nobody owns: what is in it was left by a crash and goes at
/// the next `claim`. Folders of live processes (a server and an import sharing a library) are
/// left alone, whatever their age.
public final class WorkFolder: Sendable {
    public let path: String
    private let lockPath: String
    private let lock: Int32

    private init(path: String, lockPath: String, lock: Int32) {
        self.path = path
        self.lockPath = lockPath
        self.lock = lock
    }

    /// Sweeps what dead processes left in `parent`, then claims a new folder there.
    public static func claim(in parent: String) throws(StorageError) -> WorkFolder {
        try FileIO.makeDirectories(parent)
        sweep(parent)
        // Losing the race below needs another process sweeping in the same microseconds;
        // losing it three times in a row means something else is wrong.
        for _ in 0..<2 {
            if let folder = try? attempt(in: parent) { return folder }
        }
        return try attempt(in: parent)
    }

    private static func attempt(in parent: String) throws(StorageError) -> WorkFolder {
        let name = UUID().uuidString.lowercased()
        let lockPath = "\(parent)/\(name).lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw FileIO.error("create lock") }
        // A sweep in another process may take the lock between open and flock, finding it
        // free, and unlink it: then this lock guards nothing and the claim must fail.
        guard flock(lock, LOCK_EX | LOCK_NB) == 0, isStillNamed(lock, lockPath) else {
            close(lock)
            throw StorageError(.io, "The work folder could not be locked.")
        }
        let path = "\(parent)/\(name)"
        do throws(StorageError) {
            try FileIO.makeDirectories(path)
        } catch {
            unlink(lockPath)
            close(lock)
            throw error
        }
        return WorkFolder(path: path, lockPath: lockPath, lock: lock)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
        unlink(lockPath)
        close(lock)
    }

    /// Removes every folder in `parent` whose lock is free, and loose files, which no current
    /// writer makes.
    static func sweep(_ parent: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: parent) else { return }
        let locks = Set(names.filter { $0.hasSuffix(".lock") })
        for name in names where !locks.contains(name) {
            let path = "\(parent)/\(name)"
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            // A folder is only ever made after its lock, so one without a lock is abandoned.
            if !isDirectory.boolValue || !locks.contains(name + ".lock") {
                try? manager.removeItem(atPath: path)
            }
        }
        for lockName in locks {
            let lockPath = "\(parent)/\(lockName)"
            let lock = open(lockPath, O_RDWR | O_CLOEXEC)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }
            try? manager.removeItem(atPath: "\(parent)/\(lockName.dropLast(".lock".count))")
            unlink(lockPath)
        }
    }

    private static func isStillNamed(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_ino == named.st_ino && opened.st_dev == named.st_dev
    }
}
