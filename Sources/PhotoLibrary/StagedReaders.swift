import Storage
internal import Synchronization

/// A staged file that several jobs read at once (an import's decode and its blob's put): the
/// last of them to finish discards it, on its own executor, so that no hop is spent on it.
/// A job that never ran leaves it to its stager, which discards it on failure.
final class StagedReaders: Sendable {
    private let staged: StagedFile
    private let staging: StagingArea
    private let reading: Atomic<Int>

    init(_ staged: StagedFile, in staging: StagingArea, readers: Int) {
        self.staged = staged
        self.staging = staging
        reading = Atomic(readers)
    }

    /// One reader is done with the file.
    func done() {
        if reading.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { staging.discard(staged) }
    }
}
