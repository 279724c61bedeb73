import Glibc
internal import Memo

/// The probes of files lately probed, so that the ffmpeg runs on one file (an import's poster,
/// scrub strip and analysis; every segment of a stream) do not each run ffprobe on it again.
///
/// A file is known by its identity on disk, not its name: a file replaced or changed under the
/// same path is probed anew.
struct ProbeMemo: Sendable {
    /// Enough for the movies being imported and streamed at once.
    private let known = BoundedMemo<Key, ProbedVideo>(capacity: 64)

    struct Key: Hashable, Sendable {
        let path: String
        let format: ContainerFormat
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int64

        /// nil when the file cannot be looked at (then it is probed, which says why). A system
        /// call: for a blocking executor.
        init?(_ path: String, _ format: ContainerFormat) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.path = path
            self.format = format
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        }
    }

    func probe(of key: Key) -> ProbedVideo? {
        known[key]
    }

    func remember(_ probe: ProbedVideo, of key: Key) {
        known.remember(probe, for: key)
    }
}
