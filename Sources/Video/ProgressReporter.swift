import Synchronization

/// Turns ffmpeg's `-progress` lines into fractions of the expected output duration.
///
/// The fractions only grow, and 1.0 is reported exactly once, when the job has succeeded:
/// ffmpeg's own clock can reach the end while it is still writing the file.
final class ProgressReporter: Sendable {
    private let total: Double
    private let report: @Sendable (Double) -> Void
    private let reported = Mutex(0.0)

    init(totalSeconds: Double, report: @escaping @Sendable (Double) -> Void) {
        self.total = totalSeconds
        self.report = report
    }

    /// Reads one line of `-progress pipe:1` output; only `out_time_us` carries the position.
    func consume(_ line: String) {
        guard line.hasPrefix(Self.key), let microseconds = Double(line.dropFirst(Self.key.count)),
            microseconds >= 0, total > 0
        else { return }
        advance(to: min(Self.lastStep, microseconds / 1_000_000 / total))
    }

    func finish() { advance(to: 1) }

    private func advance(to fraction: Double) {
        let isNew = reported.withLock { reported in
            guard fraction > reported else { return false }
            reported = fraction
            return true
        }
        if isNew { report(fraction) }
    }

    private static let key = "out_time_us="
    /// The highest fraction ffmpeg's clock alone may report (see the type's comment).
    private static let lastStep = 0.99
}
