import Digests
import Foundation

/// SHA-256s of a file's parts and of the whole, in one pass: for a store that checks each part
/// of an upload on its own, and a caller that checks the whole is what it staged.
public enum FileDigest {
    /// The SHA-1 of a whole file, as lowercase hex: tus' checksum extension asks every server to
    /// take that algorithm.
    public static func sha1(of path: String) throws(StorageError) -> String {
        try digest(of: path, MessageDigest(sha1: true)).hash
    }

    /// The SHA-256 of a whole file, as lowercase hex, and how many bytes it had.
    public static func sha256(of path: String) throws(StorageError) -> (hash: String, size: Int) {
        try digest(of: path, MessageDigest())
    }

    private static func digest(of path: String, _ digest: MessageDigest) throws(StorageError) -> (hash: String, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        var size = 0
        try FileIO.readChunks(fd) { chunk in
            digest.update(chunk)
            size += chunk.count
        }
        return (digest.finish(), size)
    }

    /// The SHA-256 of each `partSize` bytes of a file (the last part shorter) and of the whole.
    public static func sha256(ofPartsOf path: String, size: Int, partSize: Int) throws(StorageError) -> (parts: [String], whole: String) {
        precondition(partSize > 0)
        return try sha256(of: path, parts: stride(from: 0, to: size, by: partSize).map { $0..<min($0 + partSize, size) })
    }

    /// The SHA-256 of each of a file's byte ranges, which follow each other from its start, and of
    /// all of them together.
    public static func sha256(of path: String, parts ranges: [Range<Int>]) throws(StorageError) -> (parts: [String], whole: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open") }
        defer { close(fd) }
        let whole = MessageDigest()
        var parts: [String] = []
        for range in ranges {
            let part = MessageDigest()
            try FileIO.readChunks(fd, in: range) { chunk in
                part.update(chunk)
                whole.update(chunk)
            }
            parts.append(part.finish())
        }
        return (parts, whole.finish())
    }
}
