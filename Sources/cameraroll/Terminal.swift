import Foundation

/// Standard output and error, and whether a person is watching them.
enum Terminal {
    static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Rewrites the current line of standard error (for progress).
    static func status(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }

    static func clearStatus() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    static func json(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        out(String(decoding: data, as: UTF8.self))
    }
}
