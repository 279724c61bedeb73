import Foundation

/// Debian's ffmpeg behind a script that first writes down each run's arguments, so a test can
/// count how often the code under test ran it. Give `path` wherever an ffmpeg goes
/// (`CAMERAROLL_FFMPEG` for the program).
public struct CountingFFmpeg: Sendable {
    public let path: String
    private let log: String

    public init(in directory: TemporaryDirectory) throws {
        path = directory.file("ffmpeg")
        log = directory.file("ffmpeg-runs.log")
        let script = "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(log)'\nexec /usr/bin/ffmpeg \"$@\"\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o700)
    }

    /// The runs so far whose arguments include `argument`.
    public func runs(with argument: String) -> Int {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.split(separator: " ").contains(Substring(argument)) }.count
    }
}
